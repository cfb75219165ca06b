#pragma once
// Numbers for a person to read (text output; JSON stays exact): one function
// per kind, used by every command's text.
//   integers  in full up to 20 digits, else "1.3997e+45 (46 digits)";
//   rationals exact up to 24 characters, else "~0.33333333333 (78-digit fraction)";
//   enclosures "[lo, hi]" with 6 significant digits, rounded outward.
#include "lgcheck/numeric/number.hpp"

#include <string>

namespace lgc {

std::string readable(const Integer& n);
std::string readable(const Rational& q);
std::string readable(const Interval& x);
std::string readable(const Number& x);
/// Always a decimal ("0.333333333333"), `significant` digits: an exact value
/// rounded to nearest, an enclosure by its midpoint (for reading, never a decision).
std::string decimal(const Number& x, int significant = 12);

}  // namespace lgc
