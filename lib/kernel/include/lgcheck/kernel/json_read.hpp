#pragma once
// Reading untrusted JSON without exceptions: every getter returns nullopt and
// says why (type, range or literal) instead of throwing.
#include "lgcheck/numeric/rational.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace lgc::kernel {

/// The longest rational literal read (characters): T5.2.sim's bounds run to 10^100000 on random models.
inline constexpr std::size_t kMaxRationalLiteral = std::size_t(1) << 20;
/// A rational written as a string literal ("3/4", "0.125", at most kMaxRationalLiteral characters) or a JSON integer.
std::optional<Rational> read_rational(const nlohmann::json& v, std::string& why);
/// A JSON integer (or a string of digits) in [0, max].
std::optional<std::uint64_t> read_count(const nlohmann::json& v, std::uint64_t max, std::string& why);
/// A short description of a JSON value for messages (strings quoted, long values cut).
std::string show(const nlohmann::json& v);
/// &o[key], or nullptr when o is not an object holding key.
const nlohmann::json* member(const nlohmann::json& o, const char* key);
/// read_rational / read_count of o[key] (why set when given); nullopt when absent.
std::optional<Rational> rational_at(const nlohmann::json& o, const char* key, std::string* why = nullptr);
std::optional<std::uint64_t> count_at(const nlohmann::json& o, const char* key, std::uint64_t max,
                                      std::string* why = nullptr);

/// A decimal literal ("0.25", "-3", "2.9e-39") as an exact rational; nullopt for anything else.
std::optional<Rational> decimal_value(const std::string& text);
/// A recorded value's ends: the rational itself twice, or the endpoints of an enclosure written "[lo, hi]"
/// (decimals rounded outward, as "0.25" or "2.9e-39"); nullopt for anything else.
std::optional<std::pair<Rational, Rational>> recorded_ends(const nlohmann::json& v);
/// One unit of the `digits`-th significant digit of d (0 for d = 0): a value written with that many significant
/// digits (rounded to nearest, or outward) is within it of the written d.
Rational significant_unit(const Rational& d, int digits);
/// How far from d (the literal `text` read) the value lies that the search wrote with `digits` significant digits:
/// 0 for a fraction "p/q" (written only when exact), else significant_unit(d, digits).
Rational literal_unit(const std::string& text, const Rational& d, int digits);

}  // namespace lgc::kernel
