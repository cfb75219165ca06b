#include "lgcheck/bounds/theorem41.hpp"

#include "lgcheck/quantities/logit_margin.hpp"
#include "lgcheck/quantities/norm_constant.hpp"
#include "lgcheck/semantics/finite_precision.hpp"

namespace lgc {

Rational simulation_delta(const Rational& epsilon, const Rational& L) {
  if (L == 0) return 2;
  return std::min(Rational(2), Rational(epsilon / L));
}

Theorem41Bounds theorem41_bounds(const std::vector<const OneLayerEvaluator*>& models, const Rational& epsilon,
                                 unsigned precision_bits, const Rational& c) {
  if (epsilon <= 0) throw std::domain_error("epsilon must be > 0");
  if (c <= 0) throw std::domain_error("the constant c must be > 0");
  const Shape& shape = models.front()->shape();
  Theorem41Bounds b;
  b.epsilon = epsilon;
  b.c = c;
  b.precision_bits = precision_bits;
  b.alphabet_size = shape.alphabet_size;
  b.period = shape.period;
  b.locality = shape.locality;
  b.L = 0;
  for (const auto* m : models) {
    LogitMargin lm = logit_margin(m->model());
    if (lm.gamma && (!b.gamma || *lm.gamma < *b.gamma)) b.gamma = lm.gamma;
    b.L = std::max(b.L, norm_constant(m->model()).L);
    b.heads += m->heads();
  }
  const bool rounding = precision_bits > 0 && b.gamma;
  b.threshold = rounding ? hardmax_threshold(precision_bits, *b.gamma) : Integer(1);
  b.scaled_threshold = rounding ? scaled_threshold(c, precision_bits, *b.gamma) : ceil(c);
  Rational S(Integer(shape.alphabet_size)), D(Integer(shape.period)), tau_hat(Integer(shape.locality + 1));
  Rational common = b.L * b.L * pow(D, 7) / (epsilon * epsilon);
  b.sample_term = common * pow(S, 6) * tau_hat * tau_hat;
  Rational loosened = pow(S, 3) + tau_hat;
  b.sample_term_sum_form = common * loosened * loosened;
  b.N_paper = std::max(b.scaled_threshold, ceil(Rational(c * b.sample_term)));
  b.N_paper_sum_form = std::max(b.scaled_threshold, ceil(Rational(c * b.sample_term_sum_form)));
  b.delta = simulation_delta(epsilon, b.L);
  b.sim = simulation_length_bound(models, b.delta, b.threshold);
  return b;
}

}  // namespace lgc
