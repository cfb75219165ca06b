#pragma once
// The three forward-pass semantics: hardmax, finite:p, softmax.
#include <string>
#include <string_view>

namespace lgc {

struct Semantics {
  enum class Kind { Hardmax, Finite, Softmax };
  Kind kind = Kind::Hardmax;
  unsigned bits = 0;  ///< p, for finite:p only

  static Semantics hardmax() { return {Kind::Hardmax, 0}; }
  static Semantics finite(unsigned p) { return {Kind::Finite, p}; }
  static Semantics softmax() { return {Kind::Softmax, 0}; }

  /// "hardmax", "softmax" or "finite:<p>" (1 <= p <= kMaxFiniteBits);
  /// throws std::invalid_argument with what was expected.
  static Semantics parse(std::string_view text);
  std::string str() const;

  friend bool operator==(const Semantics&, const Semantics&) = default;
};

constexpr unsigned kMaxFiniteBits = 1u << 16;

}  // namespace lgc
