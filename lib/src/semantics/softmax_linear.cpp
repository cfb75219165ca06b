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
  if (model.layers.size() < 2) return;
  const auto enclose_at_bits = [bits](const Rational& q) { return Interval(q, bits); };
  for (const Head& head : model.layers[1].heads)
    second_.push_back(attention::second_head_tables<Interval>(head, enclose_at_bits));
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
  const Interval log_T = log(Interval(Rational(Integer(T)), bits));
  const IVector y = attention::second_layer_attention(
      second_, enclose(last, bits), T, log_T, Interval::zero(bits), [&](auto&& add) {
        first_.for_each_position(x, [&](const SoftmaxFirstLayer::Point& p) {
          add(p.i, enclose(first_.layer_output(p), bits));
        });
      });
  Vector<Number> out;
  for (const Interval& e : y) out.emplace_back(e);
  const Layer& second = model.layers[1];
  return second.mlp ? apply_mlp(*second.mlp, out) : out;
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
