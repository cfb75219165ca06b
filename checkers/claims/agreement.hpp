#pragma once
// Comparing two vectors of certified numbers, and printing them, for the
// checkers' verdicts and messages.
#include "lgcheck/numeric/number.hpp"
#include "lgcheck/numeric/matrix.hpp"

#include <string>

namespace lgc {

enum class Agreement { Equal, Different, Unknown };

/// Equal when every entry is certainly equal, Different when some entry is
/// certainly different, Unknown otherwise.
Agreement agreement(const Vector<Number>& a, const Vector<Number>& b);

/// "(1/2, [0.84, 0.85])": exact entries as fractions, enclosures as intervals.
std::string show(const Vector<Number>& v, int digits = 10);
/// One number the same way.
std::string show(const Number& x, int digits = 12);
/// For one-line messages: `readable` (lgcheck/report/readable.hpp; the exact
/// value goes in the evidence).
std::string show_short(const Number& x);
/// An upper bound for one-line messages: exact when the fraction is short,
/// else `digits` significant decimals rounded up, marked "(rounded up)".
std::string show_upper(const Rational& q, int digits = 12);

}  // namespace lgc
