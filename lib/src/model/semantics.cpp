#include "lgcheck/model/semantics.hpp"

#include <cctype>
#include <stdexcept>

namespace lgc {

Semantics Semantics::parse(std::string_view text) {
  if (text == "hardmax") return hardmax();
  if (text == "softmax") return softmax();
  for (const Kind kind : {Kind::Finite, Kind::FiniteWeights}) {
    const std::string_view prefix = kind == Kind::Finite ? "finite:" : "finite-weights:";
    if (text.substr(0, prefix.size()) != prefix) continue;
    std::string_view digits = text.substr(prefix.size());
    bool ok = !digits.empty() && digits.size() <= 6;
    for (char c : digits) ok = ok && std::isdigit(static_cast<unsigned char>(c));
    if (ok) {
      unsigned long p = std::stoul(std::string(digits));
      if (p >= 1 && p <= kMaxFiniteBits) return {kind, static_cast<unsigned>(p)};
    }
  }
  throw std::invalid_argument("expected \"hardmax\", \"softmax\", \"finite:<p>\" or \"finite-weights:<p>\" with 1 <= p <= " +
                              std::to_string(kMaxFiniteBits) + ", got \"" + std::string(text) + "\"");
}

std::string Semantics::str() const {
  switch (kind) {
    case Kind::Hardmax: return "hardmax";
    case Kind::Softmax: return "softmax";
    case Kind::Finite: return "finite:" + std::to_string(bits);
    case Kind::FiniteWeights: return "finite-weights:" + std::to_string(bits);
  }
  return "?";
}

}  // namespace lgc
