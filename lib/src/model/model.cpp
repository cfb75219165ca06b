#include "lgcheck/model/model.hpp"

namespace lgc {

QVector initial_embedding(const Model& model, int token, std::size_t position) {
  return add(model.embedding.row(static_cast<std::size_t>(token)), model.positional.row(position % model.period));
}

}  // namespace lgc
