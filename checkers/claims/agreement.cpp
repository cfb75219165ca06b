#include "claims/agreement.hpp"

#include "lgcheck/report/readable.hpp"

#include "lgcheck/numeric/interval.hpp"

namespace lgc {

Agreement agreement(const Vector<Number>& a, const Vector<Number>& b) {
  bool unknown = false;
  for (std::size_t k = 0; k < a.size(); ++k) {
    std::optional<int> c = compare(a[k], b[k]);
    if (!c) unknown = true;
    else if (*c != 0) return Agreement::Different;
  }
  return unknown ? Agreement::Unknown : Agreement::Equal;
}

std::string show(const Number& x, int digits) {
  return x.is_exact() ? to_string(x.exact()) : x.enclosure().to_string(digits);
}

std::string show_short(const Number& x) { return readable(x); }

std::string show_upper(const Rational& q, int digits) {
  std::string exact = to_string(q);
  if (exact.size() <= 24) return exact;
  return Interval(q, 256).upper_decimal(digits) + " (rounded up)";
}

std::string show(const Vector<Number>& v, int digits) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + show(x, digits);
  return "(" + s + ")";
}

}  // namespace lgc
