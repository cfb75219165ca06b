#include "lgcheck/tasks/section5_tasks.hpp"

#include "lgcheck/quantities/positional_margin.hpp"

#include <string>

namespace lgc {
namespace {

/// Softmax over {0, 1}, Δ = 1, width 4 (token 0, token 1, constant 1,
/// output slot); layers and readout are the caller's.
Model two_token_softmax(std::size_t locality) {
  Model m;
  m.alphabet = {"0", "1"};
  m.width = 4;
  m.period = 1;
  m.locality = locality;
  m.semantics = Semantics::softmax();
  m.embedding = QMatrix(2, 4, Rational(0));
  m.embedding(0, 0) = m.embedding(1, 1) = 1;
  m.embedding(0, 2) = m.embedding(1, 2) = 1;
  m.positional = QMatrix(1, 4, Rational(0));
  return m;
}

Head zero_head(QVector phi) { return Head{QMatrix(4, 4, Rational(0)), QMatrix(4, 4, Rational(0)), std::move(phi)}; }

}  // namespace

Model regime_model(const Rational& phi1, const Rational& content) {
  Model m = two_token_softmax(1);
  Head first = zero_head(QVector{Rational(0), phi1});
  first.qk(1, 2) = content;  // logit = content · [key is 1] · (query constant 1)
  first.value(3, 1) = 1;     // output slot <- [key is 1]
  Head second = zero_head(QVector{Rational(0), Rational(0)});
  second.value(3, 3) = 1;    // average of the first layer's output slot
  m.layers = {Layer{{first}, std::nullopt}, Layer{{second}, std::nullopt}};
  m.readout.weights = QMatrix(1, 4, Rational(0));
  m.readout.weights(0, 3) = 1;
  m.readout.bias = QVector{Rational(0)};
  Rational top = phi1 > 1 ? phi1 : Rational(1);
  Regime regime = phi1 < 1 ? Regime::TokenDominant : (phi1 == 1 ? Regime::Balanced : Regime::PositionDominant);
  std::string name = to_string(regime);
  m.name = "regime_" + name.substr(0, name.find('-'));
  m.description = "two-layer softmax model, first head " + name + " (phi = (0, " + to_string(phi1) +
                  "), content logit " + to_string(content) + " on key 1, max P = " + to_string(top) +
                  "); the second layer averages the first layer's output";
  return m;
}

SoftmaxPair attention_pair(const Rational& a, const Rational& copy, const Rational& eta,
                           const AttentionFirstLayer& first_layer) {
  const std::size_t tau = first_layer.locality;
  Model m = two_token_softmax(tau);
  QVector phi(tau + 1, first_layer.phi);
  phi[0] = 0;
  Head first = zero_head(phi);
  first.qk(1, 2) = first_layer.score;  // logit = score · [key is 1] · (query constant 1)
  first.value(3, 1) = copy;
  Head second = zero_head(QVector(tau + 1, Rational(0)));
  second.qk(1, 2) = a;   // key 1: +a
  second.qk(0, 2) = -a;  // key 0: −a
  second.value(3, 1) = 1;
  m.layers = {Layer{{first}, std::nullopt}, Layer{{second}, std::nullopt}};
  m.readout.weights = QMatrix(1, 4, Rational(0));
  m.readout.weights(0, 3) = 1;
  m.readout.bias = QVector{Rational(0)};
  SoftmaxPair p{m, m};
  std::string params = "a = " + to_string(a) + ", copy = " + to_string(copy);
  if (tau > 0 || first_layer.score != 0)
    params += ", tau = " + std::to_string(tau) + ", first-layer score " + to_string(first_layer.score) +
              " on key 1, phi = " + to_string(first_layer.phi) + " on the window";
  p.f.name = "attention_pair_f";
  p.f.description = "two-layer softmax, second layer scores keys +-a (" + params + ")";
  p.g.name = "attention_pair_g";
  p.g.layers[1].heads[0].value(3, 1) = 1 + eta;
  p.g.description = "the same with the second value map scaled by 1 + " + to_string(eta);
  return p;
}

}  // namespace lgc
