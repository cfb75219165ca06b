#include "lgcheck/quantities/logit_margin.hpp"

#include <algorithm>

namespace lgc {
namespace {

Rational bilinear(const QVector& key, const QMatrix& m, const QVector& query) {
  return dot<Rational>(key, apply<Rational>(m, query));
}

QVector class_embedding(const Model& model, int token, std::size_t residue) {
  return add(model.embedding.row(static_cast<std::size_t>(token)), model.positional.row(residue % model.period));
}

}  // namespace

std::vector<Rational> attainable_logits(const Model& model, std::size_t head, int query_token, std::size_t residue) {
  const Head& h = model.layers.at(0).heads.at(head);
  const std::size_t period = model.period;
  QVector query = class_embedding(model, query_token, residue);
  QVector mq = apply<Rational>(h.qk, query);
  std::vector<Rational> logits;
  const int S = static_cast<int>(model.alphabet_size());
  for (int s = 0; s < S; ++s) {
    for (std::size_t r = 0; r < period; ++r) logits.push_back(dot<Rational>(class_embedding(model, s, r), mq));
    for (std::size_t t = 1; t <= model.locality; ++t) {
      std::size_t key_residue = (residue + period * (t / period + 1) - t) % period;
      logits.push_back(dot<Rational>(class_embedding(model, s, key_residue), mq) + h.phi[t]);
    }
  }
  logits.push_back(bilinear(query, h.qk, query) + h.phi[0]);
  std::sort(logits.begin(), logits.end());
  logits.erase(std::unique(logits.begin(), logits.end()), logits.end());
  return logits;
}

LogitMargin logit_margin(const Model& model) {
  LogitMargin result;
  const auto& heads = model.layers.at(0).heads;
  for (std::size_t h = 0; h < heads.size(); ++h)
    for (int y = 0; y < static_cast<int>(model.alphabet_size()); ++y)
      for (std::size_t r = 0; r < model.period; ++r) {
        std::vector<Rational> a = attainable_logits(model, h, y, r);
        for (std::size_t k = 1; k < a.size(); ++k) {
          Rational gap = a[k] - a[k - 1];
          if (!result.gamma || gap < *result.gamma) {
            result.gamma = gap;
            result.witness = LogitMarginWitness{h, y, r, a[k - 1], a[k]};
          }
        }
      }
  return result;
}

}  // namespace lgc
