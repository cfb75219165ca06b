#pragma once
// The three forward-pass semantics: hardmax, finite:p, softmax.
#include <string>
#include <string_view>

namespace lgc {

struct Semantics {
  /// Finite: the un-normalised terms u_j = i^{a_ij − a*} at most 2^{−p} are
  /// set to 0, then the survivors normalised. FiniteWeights [toolkit]: the
  /// normalised weights w_j = u_j / Σu at most 2^{−p} are set to 0, then the
  /// survivors renormalised.
  enum class Kind { Hardmax, Finite, FiniteWeights, Softmax };
  Kind kind = Kind::Hardmax;
  unsigned bits = 0;  ///< p, for finite:p and finite-weights:p only

  static Semantics hardmax() { return {Kind::Hardmax, 0}; }
  static Semantics finite(unsigned p) { return {Kind::Finite, p}; }
  static Semantics finite_weights(unsigned p) { return {Kind::FiniteWeights, p}; }
  static Semantics softmax() { return {Kind::Softmax, 0}; }

  /// Whether attention weights are rounded at p bits (finite:p or finite-weights:p).
  bool rounds() const { return kind == Kind::Finite || kind == Kind::FiniteWeights; }

  /// "hardmax", "softmax", "finite:<p>" or "finite-weights:<p>" (1 <= p <=
  /// kMaxFiniteBits); throws std::invalid_argument with what was expected.
  static Semantics parse(std::string_view text);
  std::string str() const;

  friend bool operator==(const Semantics&, const Semantics&) = default;
};

constexpr unsigned kMaxFiniteBits = 1u << 16;

}  // namespace lgc
