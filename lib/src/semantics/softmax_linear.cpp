#include "lgcheck/semantics/softmax_linear.hpp"

#include "lgcheck/semantics/softmax_layer1.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace lgc {
namespace {

IVector enclose(const Vector<Number>& y, unsigned bits) {
  IVector out;
  for (const auto& v : y) out.push_back(v.enclosure(bits));
  return out;
}

template <class Sparse>
Sparse sparse(const QMatrix& m, unsigned bits) {
  Sparse out;
  for (std::size_t r = 0; r < m.rows(); ++r)
    for (std::size_t c = 0; c < m.cols(); ++c)
      if (m(r, c) != 0) out.push_back({r, c, Interval(m(r, c), bits)});
  return out;
}

template <class Sparse>
IVector times(const Sparse& m, std::size_t rows, const IVector& y, unsigned bits) {
  IVector out(rows, Interval::zero(bits));
  for (const auto& e : m) out[e.row] += e.value * y[e.col];
  return out;
}

Interval dot(const IVector& a, const IVector& b, unsigned bits) {
  Interval s = Interval::zero(bits);
  for (std::size_t k = 0; k < a.size(); ++k) s += a[k] * b[k];
  return s;
}

/// One second-layer head's running sums Σ w_j V Y_j and Σ w_j.
struct HeadSum {
  IVector query;  // M Y_T
  IVector num;
  Interval den;
};

/// The cheap enclosure is kept when every component is narrower than
/// 2^-30·max(1, |component|) (a choice of precision, not a verdict).
bool narrow_enough(const FVector& y) {
  for (const FastInterval& e : y)
    if (!(e.hi - e.lo <= std::ldexp(std::max({1.0, std::abs(e.lo), std::abs(e.hi)}), -30))) return false;
  return true;
}

}  // namespace

SoftmaxLinearEvaluator::SoftmaxLinearEvaluator(const Model& model, unsigned bits)
    : first_(model, bits), fast_(first_), bits_(bits) {
  if (model.layers.size() > 2)
    throw std::invalid_argument("softmax_evaluate_linear: one or two layers, got " + std::to_string(model.layers.size()));
  if (model.layers.size() == 2)
    for (const Head& head : model.layers[1].heads) {
      qk_.push_back(sparse<Sparse>(head.qk, bits));
      value_.push_back(sparse<Sparse>(head.value, bits));
    }
}

Vector<Number> SoftmaxLinearEvaluator::representation(const Tokens& x) const {
  if (x.empty()) throw std::invalid_argument("softmax_evaluate_linear: empty input");
  const std::optional<FVector> cheap = fast_.representation(x);
  if (!cheap || !narrow_enough(*cheap)) return precise_representation(x);
  Vector<Number> y;
  for (const FastInterval& e : *cheap) y.push_back(Number(e.to_interval(bits_)));
  return y;
}

Vector<Number> SoftmaxLinearEvaluator::precise_representation(const Tokens& x) const {
  if (x.empty()) throw std::invalid_argument("softmax_evaluate_linear: empty input");
  const Model& model = first_.model();
  const unsigned bits = bits_;
  const std::uint64_t T = x.size();
  Vector<Number> last;
  first_.for_each_position(x, [&](const SoftmaxFirstLayer::Point& p) {
    if (p.i == T) last = first_.layer_output(p);
  });
  if (model.layers.size() == 1) return last;
  const Layer& second = model.layers[1];
  const IVector query = enclose(last, bits);
  std::vector<HeadSum> sums;
  for (std::size_t g = 0; g < second.heads.size(); ++g)
    sums.push_back({times(qk_[g], model.width, query, bits), IVector(model.width, Interval::zero(bits)),
                    Interval::zero(bits)});
  const Interval log_T = log(Interval(Rational(Integer(T)), bits));
  first_.for_each_position(x, [&](const SoftmaxFirstLayer::Point& p) {
    const IVector key = enclose(first_.layer_output(p), bits);
    for (std::size_t g = 0; g < second.heads.size(); ++g) {
      const Head& head = second.heads[g];
      Interval logit = dot(key, sums[g].query, bits);
      const std::uint64_t t = T - p.i;
      if (t < head.phi.size() && head.phi[t] != 0) logit += Interval(head.phi[t], bits) * log_T;
      Interval w = exp(logit);
      sums[g].den += w;
      IVector v = times(value_[g], model.width, key, bits);
      for (std::size_t k = 0; k < v.size(); ++k) sums[g].num[k] += w * v[k];
    }
  });
  Vector<Number> y(model.width);
  for (std::size_t k = 0; k < y.size(); ++k) {
    Interval s = query[k];
    for (const auto& h : sums) s += h.num[k] / h.den;
    y[k] = Number(s);
  }
  return second.mlp ? apply_mlp(*second.mlp, y) : y;
}

Output SoftmaxLinearEvaluator::evaluate(const Tokens& x) const {
  return apply_readout(first_.model(), representation(x), bits_);
}

Output SoftmaxLinearEvaluator::precise_evaluate(const Tokens& x) const {
  return apply_readout(first_.model(), precise_representation(x), bits_);
}

Vector<Number> softmax_representation_linear(const Model& model, const Tokens& x, unsigned bits) {
  return SoftmaxLinearEvaluator(model, bits).representation(x);
}

Output softmax_evaluate_linear(const Model& model, const Tokens& x, unsigned bits) {
  return SoftmaxLinearEvaluator(model, bits).evaluate(x);
}

}  // namespace lgc
