// Untrusted JSON getters that never throw.
#include "lgcheck/kernel/json_read.hpp"

namespace lgc::kernel {

std::optional<Rational> read_rational(const nlohmann::json& v, std::string& why) {
  if (v.is_number_unsigned()) return Rational(v.get<std::uint64_t>());
  if (v.is_number_integer()) return Rational(v.get<std::int64_t>());
  if (!v.is_string()) return why = std::string("expected a rational string, got a JSON ") + v.type_name(), std::nullopt;
  const auto& text = v.get_ref<const std::string&>();
  if (text.size() > 4096) return why = "a rational literal longer than 4096 characters", std::nullopt;
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

}  // namespace lgc::kernel
