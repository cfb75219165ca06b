#include "lgcheck/model/input.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace lgc {
namespace {

bool single_character_names(const Model& model) {
  return std::all_of(model.alphabet.begin(), model.alphabet.end(), [](const std::string& s) { return s.size() == 1; });
}

std::string alphabet_list(const Model& model) {
  std::string list;
  for (const auto& s : model.alphabet) list += (list.empty() ? "" : " ") + s;
  return "{" + list + "}";
}

int token_index(const Model& model, const std::string& name, std::size_t position) {
  auto it = std::find(model.alphabet.begin(), model.alphabet.end(), name);
  if (it == model.alphabet.end())
    throw InputError("input position " + std::to_string(position) + ": \"" + name + "\" is not in the alphabet " +
                     alphabet_list(model));
  return static_cast<int>(it - model.alphabet.begin());
}

}  // namespace

Tokens parse_input(const Model& model, std::string_view text) {
  Tokens tokens;
  if (single_character_names(model)) {
    for (char c : text) {
      if (std::isspace(static_cast<unsigned char>(c))) continue;
      tokens.push_back(token_index(model, std::string(1, c), tokens.size() + 1));
    }
  } else {
    std::istringstream words{std::string(text)};
    std::string word;
    while (words >> word) tokens.push_back(token_index(model, word, tokens.size() + 1));
  }
  if (tokens.empty()) throw InputError("the input is empty; a string has at least one token");
  return tokens;
}

std::string format_input(const Model& model, const Tokens& tokens) {
  bool compact = single_character_names(model);
  std::string out;
  for (std::size_t k = 0; k < tokens.size(); ++k) {
    if (!compact && k > 0) out += ' ';
    out += model.alphabet.at(static_cast<std::size_t>(tokens[k]));
  }
  return out;
}

}  // namespace lgc
