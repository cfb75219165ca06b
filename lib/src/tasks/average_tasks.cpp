#include "lgcheck/tasks/average_tasks.hpp"

#include <stdexcept>
#include <string>

namespace lgc {

PresencePair presence_pair(std::size_t alphabet_size, const std::vector<bool>& marked, const Rational& eta) {
  if (alphabet_size < 2 || marked.size() != alphabet_size)
    throw std::invalid_argument("presence_pair: need >= 2 symbols and one mark per symbol");
  Model m;
  std::string marks;
  for (std::size_t s = 0; s < alphabet_size; ++s) {
    m.alphabet.push_back(std::to_string(s));
    if (marked[s]) marks += (marks.empty() ? "" : ",") + m.alphabet.back();
  }
  if (marks.empty()) throw std::invalid_argument("presence_pair: mark at least one symbol");
  m.width = 3;  // [marked], output, constant 1
  m.period = 1;
  m.locality = 0;
  m.semantics = Semantics::hardmax();
  m.embedding = QMatrix(alphabet_size, 3, Rational(0));
  for (std::size_t s = 0; s < alphabet_size; ++s) {
    m.embedding(s, 0) = marked[s] ? 1 : 0;
    m.embedding(s, 2) = 1;
  }
  m.positional = QMatrix(1, 3, Rational(0));
  Head head{QMatrix(3, 3, Rational(0)), QMatrix(3, 3, Rational(0)), QVector{Rational(0)}};
  head.qk(0, 2) = 1;     // logit = [key marked] · (query constant 1)
  head.value(1, 0) = 1;  // output slot <- [key marked]
  m.layers = {Layer{{head}, std::nullopt}};
  m.readout.weights = QMatrix(1, 3, Rational(0));
  m.readout.bias = QVector{Rational(0)};
  PresencePair p{m, m};
  p.f.name = "presence_f";
  p.f.description = "presence pair, f: the constant 0";
  p.g.name = "presence_g";
  p.g.readout.weights(0, 1) = eta;
  p.g.description = "presence pair, g: " + to_string(eta) + " when a symbol of {" + marks + "} occurs, else 0";
  return p;
}

}  // namespace lgc
