#include "lgcheck/tasks/kgram.hpp"

#include "lgcheck/numeric/interval.hpp"

#include <stdexcept>
#include <string>

namespace lgc {
namespace {

/// The least multiple of 1/8 that is >= every point of x.
Rational eighths_above(const Interval& x) { return Rational(ceil(x.upper() * 8), 8); }

}  // namespace

std::vector<std::uint64_t> kgram_matches(std::size_t k, const Tokens& x) {
  std::vector<std::uint64_t> out;
  const std::size_t T = x.size();
  for (std::size_t t = k + 1; t <= T; ++t) {
    bool match = true;
    for (std::size_t h = 1; h <= k && match; ++h) match = x[t - 1 - h] == x[T - h];  // x_{t−h} = x_{T−h+1}
    if (match) out.push_back(t);
  }
  return out;
}

Rational kgram_match_fraction(std::size_t k, const Tokens& x) {
  if (x.size() <= k) return 0;
  return Rational(static_cast<long>(kgram_matches(k, x).size()), static_cast<long>(x.size() - k));
}

QVector kgram_target(std::size_t alphabet_size, std::size_t k, const Tokens& x) {
  std::vector<std::uint64_t> t = kgram_matches(k, x);
  QVector f(alphabet_size, t.empty() ? Rational(1, static_cast<long>(alphabet_size)) : Rational(0));
  for (auto j : t) f[static_cast<std::size_t>(x[j - 1])] += Rational(1, static_cast<long>(t.size()));
  return f;
}

Model kgram_model(std::size_t S, std::size_t k, const Rational& beta, const Rational& lambda) {
  if (S < 2 || S > 26 || k < 1) throw std::invalid_argument("kgram_model: need 2 <= S <= 26 and k >= 1");
  const std::size_t d = (k + 2) * S;
  Model m;
  for (std::size_t s = 0; s < S; ++s) m.alphabet.push_back(std::string(1, static_cast<char>('a' + s)));
  m.width = d;
  m.period = 1;
  m.locality = k;
  m.semantics = Semantics::softmax();
  m.embedding = QMatrix(S, d, Rational(0));
  for (std::size_t s = 0; s < S; ++s) m.embedding(s, s) = 1;
  m.positional = QMatrix(1, d, Rational(0));
  Layer copy;
  for (std::size_t h = 1; h <= k; ++h) {
    Head head{QMatrix(d, d, Rational(0)), QMatrix(d, d, Rational(0)), QVector(k + 1, Rational(0))};
    head.phi[h] = lambda;
    for (std::size_t s = 0; s < S; ++s) head.value(h * S + s, s) = 1;  // block h <- the key's token
    copy.heads.push_back(std::move(head));
  }
  Head match{QMatrix(d, d, Rational(0)), QMatrix(d, d, Rational(0)), QVector(k + 1, Rational(0))};
  for (std::size_t h = 1; h <= k; ++h)
    for (std::size_t s = 0; s < S; ++s) match.qk(h * S + s, (h - 1) * S + s) = beta;  // key block h · query block h−1
  for (std::size_t s = 0; s < S; ++s) match.value((k + 1) * S + s, s) = 1;            // output <- the key's token
  m.layers = {copy, Layer{{match}, std::nullopt}};
  m.readout.weights = QMatrix(S, d, Rational(0));
  for (std::size_t s = 0; s < S; ++s) m.readout.weights(s, (k + 1) * S + s) = 1;
  m.readout.bias = QVector(S, Rational(0));
  m.name = "kgram_k" + std::to_string(k) + "_s" + std::to_string(S);
  m.description = "in-context " + std::to_string(k) + "-gram over " + std::to_string(S) +
                  " symbols: k copy heads (phi(h) = " + to_string(lambda) + "), a matching head of strength beta = " +
                  to_string(beta);
  return m;
}

std::uint64_t kgram_min_length(const Rational& epsilon, const Rational& rho, std::size_t k) {
  if (epsilon <= 0 || epsilon > 1 || rho <= 0 || rho > 1)
    throw std::invalid_argument("kgram parameters: epsilon and rho must be in (0, 1]");
  return k + ceil(Rational(5 * static_cast<long>(k), 2) / (rho * epsilon)).convert_to<std::uint64_t>();
}

KgramParameters kgram_parameters(const Rational& epsilon, const Rational& rho, std::size_t k) {
  KgramParameters p;
  p.min_length = kgram_min_length(epsilon, rho, k);
  const unsigned bits = 128;
  p.beta = eighths_above(Interval(Rational(2), bits) * log(Interval(4 / (epsilon * rho), bits)));
  Rational ratio = Rational(40 * static_cast<long>(k * k)) * p.beta / epsilon;
  Interval needed = log(Interval(ratio, bits)) / log(Interval(Rational(static_cast<long>(k + 1)), bits));
  p.lambda = std::max(Rational(2), eighths_above(needed));
  return p;
}

}  // namespace lgc
