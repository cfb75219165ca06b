#include "lgcheck/tasks/paper_tasks.hpp"

#include "lgcheck/numeric/interval.hpp"
#include "lgcheck/semantics/finite_precision.hpp"

#include <stdexcept>
#include <string>

namespace lgc {
namespace {

QMatrix zeros(std::size_t rows, std::size_t cols) { return QMatrix(rows, cols, Rational(0)); }

/// sin(x) rounded down to a multiple of 10^{-6} (from a certified enclosure).
Rational sin_to_micro(const Rational& x) {
  Interval s = sin(Interval(x, 128));
  Rational scaled = s.lower() * 1000000;
  return Rational(floor(scaled), 1000000);
}

/// S = 2, Δ = 1, τ = 0, width 4 (token 0, token 1, q, a free slot), M = 0:
/// attention is uniform over every position and writes q = the fraction of
/// 1-tokens into slot 2. No MLP; the readout is left to the caller (1×4, zero).
Model fraction_of_ones_model() {
  Model m;
  m.alphabet = {"0", "1"};
  m.width = 4;
  m.period = 1;
  m.locality = 0;
  m.semantics = Semantics::hardmax();
  m.embedding = zeros(2, 4);
  m.embedding(0, 0) = 1;
  m.embedding(1, 1) = 1;
  m.positional = zeros(1, 4);
  Head head{zeros(4, 4), zeros(4, 4), QVector{Rational(0)}};
  head.value(2, 1) = 1;
  m.layers = {Layer{{head}, std::nullopt}};
  m.readout.weights = zeros(1, 4);
  m.readout.bias = QVector{Rational(0)};
  return m;
}

}  // namespace

std::string rational_name(const Rational& q) {
  std::string s = to_string(q);
  for (char& c : s)
    if (c == '/') c = '_';
  return s;
}


namespace {

/// The semantics in a model name: finite8, finite_weights8, hardmax, softmax.
std::string semantics_tag(const Semantics& semantics) {
  if (semantics.kind == Semantics::Kind::Finite) return "finite" + std::to_string(semantics.bits);
  if (semantics.kind == Semantics::Kind::FiniteWeights) return "finite_weights" + std::to_string(semantics.bits);
  return semantics.str();
}

}  // namespace

Model modp_task(std::size_t p, const Semantics& semantics, const Rational& margin) {
  Model m;
  m.name = "modp_p" + std::to_string(p) + "_" + semantics_tag(semantics);
  m.description = "ModPTask p=" + std::to_string(p) + ": the fraction of 1-tokens among the positions j <= T with " +
                  "j mod " + std::to_string(p) + " = 0 (all positions while none exists yet); " + semantics.str() +
                  " semantics" + (margin == 1 ? std::string() : ", logit gap " + to_string(margin));
  if (margin != 1) m.name += "_margin" + rational_name(margin);
  m.alphabet = {"0", "1"};
  m.width = 5;  // token 0, token 1, residue 0, constant 1, output slot
  m.period = p;
  m.locality = 0;
  m.semantics = semantics;
  m.embedding = zeros(2, 5);
  m.embedding(0, 0) = 1;
  m.embedding(1, 1) = 1;
  m.embedding(0, 3) = m.embedding(1, 3) = 1;
  m.positional = zeros(p, 5);
  m.positional(0, 2) = 1;
  Head head{zeros(5, 5), zeros(5, 5), QVector{Rational(0)}};
  head.qk(2, 3) = margin;  // logit = margin · [key residue 0] · (query constant 1)
  head.value(4, 1) = 1;  // output slot <- "key token is 1"
  m.layers = {Layer{{head}, std::nullopt}};
  m.readout.weights = zeros(1, 5);
  m.readout.weights(0, 4) = 1;
  m.readout.bias = QVector{Rational(0)};
  return m;
}

Model margin_counter(const Rational& gamma, const Semantics& semantics) {
  if (gamma <= 0 || gamma > Rational(1, 2)) throw std::invalid_argument("margin_counter: gamma must be in (0, 1/2]");
  Model m;
  m.name = "margin_counter_gamma" + rational_name(gamma) + "_" + semantics_tag(semantics);
  m.description = "margin counter-family: logits 1, 1 - " + to_string(gamma) +
                  ", 0 on the keys 1, 2, 0; the keys 1 and 2 carry one value (logit margin " + to_string(gamma) +
                  ", value-aware margin " + to_string(1 - gamma) + "); " + semantics.str() + " semantics";
  m.alphabet = {"0", "1", "2"};
  m.width = 5;  // token 0, token 1, token 2, constant 1, output slot
  m.semantics = semantics;
  m.embedding = zeros(3, 5);
  for (std::size_t s = 0; s < 3; ++s) m.embedding(s, s) = m.embedding(s, 3) = 1;
  m.positional = zeros(1, 5);
  Head head{zeros(5, 5), zeros(5, 5), QVector{Rational(0)}};
  head.qk(1, 3) = 1;          // key token 1 against the query's constant: logit 1
  head.qk(2, 3) = 1 - gamma;  // key token 2: logit 1 − γ; key token 0: logit 0
  head.value(4, 1) = head.value(4, 2) = 1;  // output slot <- "key token is 1 or 2"
  m.layers = {Layer{{head}, std::nullopt}};
  m.readout.weights = zeros(1, 5);
  m.readout.weights(0, 4) = 1;
  m.readout.bias = QVector{Rational(0)};
  return m;
}

MarginWitness margin_witness(const Rational& gamma, unsigned bits, const Rational& eta) {
  if (gamma <= 0 || gamma > 1) throw std::invalid_argument("margin_witness: gamma must be in (0, 1]");
  if (bits == 0) throw std::invalid_argument("margin_witness: the precision p must be >= 1");
  if (eta <= 0) throw std::invalid_argument("margin_witness: eta must be > 0");
  MarginWitness w;
  w.length = hardmax_threshold(bits, gamma);
  if (w.length < 3)
    throw std::invalid_argument("margin_witness: ceil(2^(p/gamma)) = " + w.length.str() + " < 3 (take p/gamma > 1)");
  w.slope = eta / (Rational(1, 2) - Rational(1) / Rational(w.length));
  Model base;
  base.alphabet = {"0", "1"};
  base.width = 5;  // token 0, token 1, h1 (the query-marked head), h2 (the uniform head), MLP output
  base.period = 1;
  base.locality = 0;
  base.semantics = Semantics::finite(bits);
  base.embedding = zeros(2, 5);
  base.embedding(0, 0) = 1;
  base.embedding(1, 1) = 1;
  base.positional = zeros(1, 5);
  Head marked{zeros(5, 5), zeros(5, 5), QVector{gamma}};  // logit gamma on the query itself, 0 elsewhere
  marked.value(2, 1) = 1;
  Head uniform{zeros(5, 5), zeros(5, 5), QVector{Rational(0)}};
  uniform.value(3, 1) = 1;
  base.layers = {Layer{{marked, uniform}, std::nullopt}};
  base.readout.weights = zeros(1, 5);
  base.readout.weights(0, 3) = 1;
  base.readout.bias = QVector{Rational(0)};
  w.name = "margin_witness_gamma" + rational_name(gamma) + "_p" + std::to_string(bits);
  const std::string& tag = w.name;
  const std::string family = "margin witness (logit margin " + to_string(gamma) + ", finite:" + std::to_string(bits) +
                             ", N = ceil(2^(p/gamma)) = " + w.length.str() + ")";
  w.f = base;
  w.f.name = tag + "_f";
  w.f.description = family + ", f: the fraction h2 of 1-tokens";
  w.g = base;
  w.g.name = tag + "_g";
  w.g.description = family + ", g: h2 + " + to_string(w.slope) +
                    " * ReLU(h1 - h2 - 1/2), h1 the weight the query-marked head gives the 1-tokens";
  Mlp mlp{zeros(1, 5), QVector{Rational(-1, 2)}, zeros(5, 1), QVector(5, Rational(0))};
  mlp.in(0, 2) = 1;
  mlp.in(0, 3) = -1;
  mlp.out(4, 0) = w.slope;
  w.g.layers[0].mlp = mlp;
  w.g.readout.weights(0, 4) = 1;
  return w;
}

Model simple_task(const Rational& omega, SimpleReadout readout) {
  Model m = fraction_of_ones_model();  // slot 3 takes the MLP output
  bool sin_readout = readout == SimpleReadout::Sin;
  m.name = std::string("simple_w") + rational_name(omega) + (sin_readout ? "_sin" : "_relu");
  Layer& layer = m.layers[0];
  if (sin_readout) {
    m.description = "SimpleTask omega=" + to_string(omega) + ": sin(omega * q), q the fraction of 1-tokens (sin readout)";
    m.readout.weights(0, 2) = 1;
    m.readout.sin_omega = omega;
  } else {
    // Knots 0 = k_0 < ... < k_K = 1; g(q) = v_0 + sum_k c_k ReLU(q - k_k) with
    // c_k the change of slope at knot k.
    std::size_t K = 4 * static_cast<std::size_t>(ceil(omega) < 1 ? Integer(1) : ceil(omega));
    std::vector<Rational> knot(K + 1), value(K + 1);
    for (std::size_t k = 0; k <= K; ++k) {
      knot[k] = Rational(static_cast<long>(k), static_cast<long>(K));
      value[k] = sin_to_micro(omega * knot[k]);
    }
    Mlp mlp{zeros(K, 4), QVector(K), zeros(4, K), QVector(4, Rational(0))};
    Rational previous_slope = 0;
    for (std::size_t k = 0; k < K; ++k) {
      Rational slope = (value[k + 1] - value[k]) / (knot[k + 1] - knot[k]);
      mlp.in(k, 2) = 1;
      mlp.in_bias[k] = -knot[k];
      mlp.out(3, k) = slope - previous_slope;
      previous_slope = slope;
    }
    mlp.out_bias[3] = value[0];
    layer.mlp = mlp;
    m.readout.weights(0, 3) = 1;
    m.description = "SimpleTask omega=" + to_string(omega) + ": piecewise-linear interpolation of sin(omega * q) at " +
                    "the " + std::to_string(K + 1) + " knots k/" + std::to_string(K) +
                    " (values rounded down to 1e-6), as a ReLU MLP; q the fraction of 1-tokens";
  }
  return m;
}

Model induction_head(const Rational& lambda, const Rational& beta) {
  Model m;
  m.name = "induction_head_k1";
  m.description = "induction head (k = 1, softmax): approximates the average one-hot of the tokens that follow the "
                  "earlier occurrences of the last token; layer 1 copies the previous token (phi(1) = " +
                  to_string(lambda) + "), layer 2 matches it against the query token (beta = " + to_string(beta) + ")";
  m.alphabet = {"a", "b"};
  m.width = 6;  // token (0,1), previous token (2,3), output (4,5)
  m.period = 1;
  m.locality = 1;
  m.semantics = Semantics::softmax();
  m.embedding = zeros(2, 6);
  m.embedding(0, 0) = 1;
  m.embedding(1, 1) = 1;
  m.positional = zeros(1, 6);
  Head copy{zeros(6, 6), zeros(6, 6), QVector{Rational(0), lambda}};
  copy.value(2, 0) = copy.value(3, 1) = 1;
  Head match{zeros(6, 6), zeros(6, 6), QVector{Rational(0), Rational(0)}};
  match.qk(2, 0) = match.qk(3, 1) = beta;  // key's previous token · query's token
  match.value(4, 0) = match.value(5, 1) = 1;
  m.layers = {Layer{{copy}, std::nullopt}, Layer{{match}, std::nullopt}};
  m.readout.weights = zeros(2, 6);
  m.readout.weights(0, 4) = m.readout.weights(1, 5) = 1;
  m.readout.bias = QVector{Rational(0), Rational(0)};
  return m;
}

Model modp_perturbed(std::size_t p, const Semantics& semantics, const Rational& eta, const Rational& readout_eta) {
  Model m = modp_task(p, semantics);
  m.layers[0].heads[0].value(4, 1) = 1 + eta;
  m.name += "_perturbed";
  m.description = "ModPTask p=" + std::to_string(p) + " with its value map perturbed by " + to_string(eta) +
                  ": (1 + eta) times the fraction of 1-tokens among the positions j = 0 mod " + std::to_string(p);
  if (readout_eta != 0) {
    m.readout.weights(0, 4) = 1 + readout_eta;
    m.description += ", its readout scaled by 1 + " + to_string(readout_eta);
  }
  return m;
}

Model attending_to_ones(Model m) {
  Head& head = m.layers.at(0).heads.at(0);
  head.qk(1, 3) = head.qk(2, 3);  // key token 1 (not key residue 0) against the query's constant 1
  head.qk(2, 3) = 0;
  m.name += "_ones";
  m.description += "; its head attends to the 1-tokens instead of the positions j = 0 mod p";
  return m;
}

Model attending_to_other_residues(Model m) {
  Head& head = m.layers.at(0).heads.at(0);
  head.qk(3, 3) = head.qk(2, 3);  // every key's constant 1 against the query's ...
  head.qk(2, 3) = -head.qk(2, 3);  // ... less key residue 0
  m.name += "_other_residues";
  m.description += "; its head attends to the positions j != 0 mod p instead of j = 0 mod p";
  return m;
}

FareyHat farey_hat(std::uint64_t n, const Rational& eta) {
  if (n < 2) throw std::invalid_argument("farey_hat: n must be >= 2");
  FareyHat w;
  const long half = static_cast<long>((n - 1) / 2);
  w.left = Rational(half, 2 * half + 1);  // the left Farey neighbour of 1/2 in F_n
  w.right = Rational(1, 2);
  w.mediant = Rational(half + 1, 2 * half + 3);
  w.mediant_length = static_cast<std::uint64_t>(2 * half + 3);
  Model base = fraction_of_ones_model();  // slot 3 takes the hat
  base.readout.weights(0, 2) = 1;
  std::string order = std::to_string(n);
  w.f = base;
  w.f.name = "farey_hat_n" + order + "_f";
  w.f.description = "Farey-hat witness of order " + order + ", f: the fraction q of 1-tokens";
  w.g = base;
  w.g.name = "farey_hat_n" + order + "_g";
  w.g.description = "Farey-hat witness of order " + order + ", g: q plus a hat of height " + to_string(eta) + " on (" +
                    to_string(w.left) + ", " + to_string(w.right) + "), peak at " + to_string(w.mediant);
  // hat = s1·ReLU(q − a) − (s1 + s2)·ReLU(q − m) + s2·ReLU(q − c)
  Rational s1 = eta / (w.mediant - w.left), s2 = eta / (w.right - w.mediant);
  Mlp mlp{zeros(3, 4), QVector{-w.left, -w.mediant, -w.right}, zeros(4, 3), QVector(4, Rational(0))};
  for (std::size_t k = 0; k < 3; ++k) mlp.in(k, 2) = 1;
  mlp.out(3, 0) = s1;
  mlp.out(3, 1) = -(s1 + s2);
  mlp.out(3, 2) = s2;
  w.g.layers[0].mlp = mlp;
  w.g.readout.weights(0, 3) = 1;
  return w;
}

}  // namespace lgc
