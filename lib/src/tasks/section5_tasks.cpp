#include "lgcheck/tasks/section5_tasks.hpp"

#include "lgcheck/numeric/interval.hpp"
#include "lgcheck/quantities/positional_margin.hpp"
#include "lgcheck/tasks/paper_tasks.hpp"

#include <stdexcept>
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

/// The sign of d(T) − level, d(T) = T^{1+γ}/(T^{1+γ} + T − 1) − 1/T (the position witness's largest h₁ − h₂ at
/// length T), decided at 128 bits and up to 4096; nullopt when no precision decides it (an exact tie).
std::optional<int> excess_sign(std::uint64_t T, const Rational& gamma, const Rational& level) {
  const auto enclose = [&](unsigned bits) {
    const Interval w = power(Integer(T), 1 + gamma, bits);
    const Interval rest(Rational(Integer(T - 1)), bits), tail(Rational(1) / Rational(Integer(T)) + level, bits);
    return w / (w + rest) - tail;
  };
  return decide_sign(enclose, 128, 4096).sign;
}

/// The first T >= from with d(T) > level (or >= level when `reach`); throws std::invalid_argument beyond
/// max_length or on a tie no precision decides.
std::uint64_t first_length_above(const Rational& gamma, const Rational& level, std::uint64_t from,
                                 std::uint64_t max_length, bool reach) {
  for (std::uint64_t T = from; T <= max_length; ++T) {
    const auto sign = excess_sign(T, gamma, level);
    if (!sign)
      throw std::invalid_argument("position_witness: d(" + std::to_string(T) + ") = " + to_string(level) +
                                  " cannot be decided (an exact tie: take another rho or eta)");
    if (*sign > 0 || (reach && *sign == 0)) return T;
  }
  throw std::invalid_argument("position_witness: d(T) stays at most " + to_string(level) + " up to length " +
                              std::to_string(max_length));
}

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
                           const AttentionFirstLayer& first_layer, const AttentionPairShape& shape) {
  const std::size_t tau = first_layer.locality;
  Model m = two_token_softmax(tau);
  if (shape.period == 0) throw std::invalid_argument("attention_pair: period 0");
  m.period = shape.period;
  m.positional = QMatrix(shape.period, 4, Rational(0));
  for (std::size_t r = 0; r < shape.period; ++r)  // r·shift more of a 1, and r·shift on the output slot
    m.positional(r, 1) = m.positional(r, 3) = Rational(Integer(r)) * shape.residue_shift;
  QVector phi(tau + 1, first_layer.phi);
  phi[0] = 0;
  Head first = zero_head(phi);
  first.qk(1, 2) = first_layer.score;  // logit = score · [key is 1] · (query constant 1)
  first.value(3, 1) = copy;
  QVector phi2(tau + 1, Rational(0));
  if (shape.second_phi_offset > tau)
    throw std::invalid_argument("attention_pair: the second-layer phi's offset must be at most tau");
  phi2[shape.second_phi_offset] = shape.second_phi;  // that key weighs L^{second_phi} at the query L
  Head second = zero_head(phi2);
  second.qk(1, 2) = a;   // key 1: +a
  second.qk(0, 2) = -a;  // key 0: −a
  second.value(3, 1) = shape.second_value;
  m.layers = {Layer{{first}, std::nullopt}, Layer{{second}, std::nullopt}};
  if (shape.two_heads) {
    Head first2 = zero_head(phi);
    first2.qk(0, 2) = first_layer.score;  // a 0-key scored like a 1-key by the first head
    first2.value(3, 0) = copy;            // output slot <- copy·[key is 0]
    Head second2 = zero_head(QVector(tau + 1, Rational(0)));
    second2.qk(0, 2) = a;   // key 0: +a
    second2.qk(1, 2) = -a;  // key 1: −a
    second2.value(3, 1) = Rational(1, 2);
    m.layers[0].heads.push_back(first2);
    m.layers[1].heads.push_back(second2);
  }
  if (shape.mlp_gain != 0) {  // y₃ += G·ReLU(y₃)
    Mlp mlp{QMatrix(1, 4, Rational(0)), QVector{Rational(0)}, QMatrix(4, 1, Rational(0)), QVector(4, Rational(0))};
    mlp.in(0, 3) = 1;
    mlp.out(3, 0) = shape.mlp_gain;
    m.layers[1].mlp = mlp;
  }
  m.readout.weights = QMatrix(1, 4, Rational(0));
  m.readout.weights(0, 3) = 1;
  m.readout.bias = QVector{Rational(0)};
  SoftmaxPair p{m, m};
  std::string params = "a = " + to_string(a) + ", copy = " + to_string(copy);
  if (tau > 0 || first_layer.score != 0)
    params += ", tau = " + std::to_string(tau) + ", first-layer score " + to_string(first_layer.score) +
              " on key 1, phi = " + to_string(first_layer.phi) + " on the window";
  if (shape.second_phi != 0)
    params += ", second-layer phi(" + std::to_string(shape.second_phi_offset) + ") = " + to_string(shape.second_phi);
  if (shape.period > 1)
    params += ", period " + std::to_string(shape.period) + ", residue shift " + to_string(shape.residue_shift);
  if (shape.second_value != 1) params += ", second-layer value " + to_string(shape.second_value);
  if (shape.two_heads) params += ", two heads per layer";
  if (shape.phi_head_last) params += ", that head second";
  if (shape.mlp_gain != 0) params += ", second-layer MLP gain " + to_string(shape.mlp_gain);
  p.f.name = "attention_pair_f";
  p.f.description = "two-layer softmax, second layer scores keys +-a (" + params + ")";
  p.g.name = "attention_pair_g";
  p.g.layers[1].heads[0].value(3, 1) = (1 + eta) * shape.second_value;
  p.g.description = "the same with the second value map scaled by 1 + " + to_string(eta);
  if (shape.phi_head_last) {
    if (!shape.two_heads) throw std::invalid_argument("attention_pair: phi_head_last needs two heads");
    for (Model* model : {&p.f, &p.g}) std::swap(model->layers[1].heads[0], model->layers[1].heads[1]);
  }
  return p;
}

PositionWitness position_witness(const Rational& gamma, const Rational& rho, const Rational& eta,
                                 std::uint64_t max_length) {
  if (gamma <= 0 || gamma > 1) throw std::invalid_argument("position_witness: gamma must be in (0, 1]");
  if (rho <= 0 || rho >= 1) throw std::invalid_argument("position_witness: rho must be in (0, 1)");
  if (eta <= 0 || eta >= rho) throw std::invalid_argument("position_witness: eta must be in (0, rho)");
  const Rational level = 1 - rho;
  PositionWitness w;
  const std::uint64_t N = first_length_above(gamma, level, 1, max_length, false);
  w.length = Integer(N);
  w.gap_length = Integer(first_length_above(gamma, level + eta, N, max_length, true));
  Model base;
  base.alphabet = {"0", "1"};
  base.width = 5;  // token 0, token 1, h1 (the query-marked head), h2 (the uniform head), MLP output
  base.period = 1;
  base.locality = 0;
  base.semantics = Semantics::softmax();
  base.embedding = QMatrix(2, 5, Rational(0));
  base.embedding(0, 0) = base.embedding(1, 1) = 1;
  base.positional = QMatrix(1, 5, Rational(0));
  const auto head = [](const Rational& phi0) {
    return Head{QMatrix(5, 5, Rational(0)), QMatrix(5, 5, Rational(0)), QVector{phi0}};
  };
  Head marked = head(1 + gamma);  // weight T^{1+gamma} on the query itself, 1 on every other key
  marked.value(2, 1) = 1;
  Head uniform = head(Rational(0));
  uniform.value(3, 1) = 1;
  base.layers = {Layer{{marked, uniform}, std::nullopt}, Layer{{head(Rational(0))}, std::nullopt}};  // value 0
  base.readout.weights = QMatrix(1, 5, Rational(0));
  base.readout.weights(0, 3) = 1;
  base.readout.bias = QVector{Rational(0)};
  w.name = "position_witness_gamma" + rational_name(gamma) + "_rho" + rational_name(rho);
  const std::string family = "positional-margin witness (softmax, positional margin " + to_string(gamma) +
                             ", threshold 1 - rho = " + to_string(level) + ", N = " + w.length.str() + ")";
  w.f = base;
  w.f.name = w.name + "_f";
  w.f.description = family + ", f: the fraction h2 of 1-tokens; the second layer adds nothing (value 0)";
  w.g = base;
  w.g.name = w.name + "_g";
  w.g.description = family + ", g: h2 + ReLU(h1 - h2 - " + to_string(level) +
                    "), h1 the weight the query-marked head (phi(0) = " + to_string(1 + gamma) +
                    ") gives the 1-tokens; the ReLU is the second layer's MLP";
  Mlp mlp{QMatrix(1, 5, Rational(0)), QVector{-level}, QMatrix(5, 1, Rational(0)), QVector(5, Rational(0))};
  mlp.in(0, 2) = 1;
  mlp.in(0, 3) = -1;
  mlp.out(4, 0) = 1;
  w.g.layers[1].mlp = mlp;
  w.g.readout.weights(0, 4) = 1;
  return w;
}

}  // namespace lgc
