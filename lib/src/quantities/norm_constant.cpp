#include "lgcheck/quantities/norm_constant.hpp"

namespace lgc {

Rational linf_norm(const QVector& v) {
  Rational best = 0;
  for (const auto& x : v) best = std::max(best, Rational(abs(x)));
  return best;
}

Rational max_row_sum_norm(const QMatrix& m) {
  Rational best = 0;
  for (std::size_t r = 0; r < m.rows(); ++r) {
    Rational row = 0;
    for (std::size_t c = 0; c < m.cols(); ++c) row += abs(m(r, c));
    best = std::max(best, row);
  }
  return best;
}

Rational readout_lipschitz(const Model& model, const NormOptions& options) {
  Rational lip = max_row_sum_norm(model.readout.weights);
  const auto& mlp = model.layers.back().mlp;
  if (mlp && options.include_mlp_term) lip *= 1 + max_row_sum_norm(mlp->out) * max_row_sum_norm(mlp->in);
  if (model.readout.sin_omega && options.include_sin_factor) lip *= abs(*model.readout.sin_omega);
  return lip;
}

Rational value_norm(const Model& model, std::size_t head) {
  const Head& h = model.layers.at(0).heads.at(head);
  Rational best = 0;
  for (std::size_t s = 0; s < model.alphabet_size(); ++s)
    for (std::size_t r = 0; r < model.period; ++r)
      best = std::max(best, linf_norm(apply<Rational>(h.value, initial_embedding(model, static_cast<int>(s), r))));
  return best;
}

NormConstant norm_constant(const Model& model, const NormOptions& options) {
  NormConstant n;
  n.readout_lipschitz = readout_lipschitz(model, options);
  Rational sum = 0;
  for (std::size_t h = 0; h < model.layers.at(0).heads.size(); ++h) {
    n.value_norms.push_back(value_norm(model, h));
    sum += n.value_norms.back();
  }
  n.L = n.readout_lipschitz * sum;
  return n;
}

}  // namespace lgc
