#pragma once
// Input strings: token names, one character per token when every name is one
// character (white space then ignored), else names separated by white space.
#include "lgcheck/model/model.hpp"

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace lgc {

using Tokens = std::vector<int>;

class InputError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// Token indices of `text`; throws InputError naming the bad token, its
/// position and the alphabet.
Tokens parse_input(const Model& model, std::string_view text);
/// The inverse of parse_input.
std::string format_input(const Model& model, const Tokens& tokens);

}  // namespace lgc
