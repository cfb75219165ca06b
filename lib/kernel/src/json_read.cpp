// Untrusted JSON getters that never throw.
#include "lgcheck/kernel/json_read.hpp"

#include <charconv>

namespace lgc::kernel {

std::optional<Rational> read_rational(const nlohmann::json& v, std::string& why) {
  if (v.is_number_unsigned()) return Rational(v.get<std::uint64_t>());
  if (v.is_number_integer()) return Rational(v.get<std::int64_t>());
  if (!v.is_string()) return why = std::string("expected a rational string, got a JSON ") + v.type_name(), std::nullopt;
  const auto& text = v.get_ref<const std::string&>();
  // Bounds such as T5.2.sim's N_variant_A reach 10^100000 and more on random models; a megabyte is read in
  // milliseconds, while still refusing a literal built only to exhaust memory.
  if (text.size() > kMaxRationalLiteral)
    return why = "a rational literal longer than " + std::to_string(kMaxRationalLiteral) + " characters", std::nullopt;
  try {
    return parse_rational(text);
  } catch (const std::exception& e) {
    return why = std::string("not an exact rational: ") + e.what(), std::nullopt;
  }
}

std::optional<std::uint64_t> read_count(const nlohmann::json& v, std::uint64_t max, std::string& why) {
  std::optional<std::uint64_t> n;
  if (v.is_number_unsigned()) n = v.get<std::uint64_t>();
  else if (v.is_number_integer() && v.get<std::int64_t>() >= 0) n = static_cast<std::uint64_t>(v.get<std::int64_t>());
  else if (v.is_string()) {
    const auto& s = v.get_ref<const std::string&>();
    if (!s.empty() && s.size() <= 19 && s.find_first_not_of("0123456789") == std::string::npos) n = std::stoull(s);
  }
  if (!n) return why = "expected a non-negative integer, got " + show(v), std::nullopt;
  if (*n > max)
    return why = "the integer " + std::to_string(*n) + " exceeds the limit " + std::to_string(max), std::nullopt;
  return n;
}

const nlohmann::json* member(const nlohmann::json& o, const char* key) {
  return o.is_object() && o.contains(key) ? &o[key] : nullptr;
}

std::optional<Rational> rational_at(const nlohmann::json& o, const char* key, std::string* why) {
  std::string ignored;
  return member(o, key) ? read_rational(o[key], why ? *why : ignored) : std::nullopt;
}

std::optional<std::uint64_t> count_at(const nlohmann::json& o, const char* key, std::uint64_t max, std::string* why) {
  std::string ignored;
  return member(o, key) ? read_count(o[key], max, why ? *why : ignored) : std::nullopt;
}

std::string show(const nlohmann::json& v) {
  std::string s = v.dump();
  if (s.size() > 80) s = s.substr(0, 77) + "...";
  return s;
}

/// A decimal literal ("0.25", "-3", "2.9e-39") as an exact rational; nullopt for anything else.
std::optional<Rational> decimal_value(const std::string& text) {
  const auto e = text.find_first_of("eE");
  const std::string mantissa = text.substr(0, e);
  const auto dot = mantissa.find('.');
  std::string digits = mantissa;
  long exponent = 0;
  if (dot != std::string::npos) {
    digits.erase(dot, 1);
    exponent = -static_cast<long>(mantissa.size() - dot - 1);
  }
  const std::size_t sign = !digits.empty() && digits.front() == '-';
  if (digits.size() <= sign || digits.size() > 40 || digits.find_first_not_of("0123456789", sign) != std::string::npos)
    return std::nullopt;
  if (e != std::string::npos) {
    const std::string power = text.substr(e + 1);
    long p = 0;
    const char* first = power.data() + (power.starts_with('+') ? 1 : 0);
    const auto [end, error] = std::from_chars(first, power.data() + power.size(), p);
    if (error != std::errc() || end != power.data() + power.size() || p < -100000 || p > 100000) return std::nullopt;
    exponent += p;
  }
  const auto lead = digits.find_first_not_of('0', sign);  // no leading 0: GMP would read the digits as octal
  const Rational value{lead == std::string::npos ? Integer(0) : Integer((sign ? "-" : "") + digits.substr(lead))};
  const Integer ten = pow(Integer(10), static_cast<unsigned>(exponent < 0 ? -exponent : exponent));
  return exponent < 0 ? Rational(value / Rational(ten)) : Rational(value * ten);
}

/// A recorded distance's ends: the rational itself twice, or the endpoints of an enclosure written "[lo, hi]"
/// (decimals rounded outward, as "0.25" or "2.9e-39"); nullopt for anything else.
std::optional<std::pair<Rational, Rational>> recorded_ends(const nlohmann::json& v) {
  std::string why;
  if (auto q = read_rational(v, why)) return std::make_pair(*q, *q);
  if (!v.is_string()) return std::nullopt;
  const std::string& t = v.get_ref<const std::string&>();
  const auto comma = t.rfind(", ");
  if (t.size() < 5 || t.front() != '[' || t.back() != ']' || comma == std::string::npos) return std::nullopt;
  const auto lo = decimal_value(t.substr(1, comma - 1)), hi = decimal_value(t.substr(comma + 2, t.size() - comma - 3));
  if (!lo || !hi) return std::nullopt;
  return std::make_pair(*lo, *hi);
}

Rational significant_unit(const Rational& d, int digits) {
  if (d == 0) return 0;
  const Rational a = d < 0 ? Rational(-d) : d;
  Rational unit = 1;  // 10^e with 10^e <= |d| < 10^{e+1}
  while (unit > a) unit /= 10;
  while (unit * 10 <= a) unit *= 10;
  for (int k = 1; k < digits; ++k) unit /= 10;
  return unit;
}

Rational literal_unit(const std::string& text, const Rational& d, int digits) {
  return text.find('/') != std::string::npos ? Rational(0) : significant_unit(d, digits);
}

}  // namespace lgc::kernel
