#pragma once
// Indistinguishable tokens (theory.md "Indistinguishable tokens"): tokens
// whose embedding rows are equal in every model of a pair enter the forward
// pass identically, so every string has the value of the string with each
// such token replaced by the first of its kind. D(n) of a hardmax pair is then
// the maximum over the strings of the merged alphabet: the same Number, from
// fewer statistics.
#include "lgcheck/enumerate/statistic.hpp"
#include "lgcheck/model/model.hpp"
#include "lgcheck/quantities/distance.hpp"

#include <cstddef>
#include <utility>
#include <vector>

namespace lgc {

/// Which tokens of a pair's alphabet are kept, and which kept token stands for each.
struct TokenMerge {
  std::vector<std::size_t> kept;          ///< original indices of the kept tokens, increasing
  std::vector<std::size_t> stands_for;    ///< per original token, the index (in `kept`) of the token standing for it
  bool merges() const { return kept.size() < stands_for.size(); }
};

/// Each token is kept unless an earlier token has the same embedding row in every model of `models` (one alphabet
/// size; the widths may differ, rows are compared within each model); then the first such token stands for it.
/// `first_model_only` is the mutation that compares the first model's rows alone (tokens then merged that the second
/// model tells apart). Throws std::invalid_argument when the models' alphabet sizes differ.
TokenMerge indistinguishable_tokens(const std::vector<const Model*>& models, bool first_model_only = false);

/// The merged-away tokens, each with the kept token standing for it (original indices), in increasing order.
std::vector<std::pair<std::size_t, std::size_t>> merged_away(const TokenMerge& merge);

/// Every one of S tokens kept (no merge).
TokenMerge every_token(std::size_t alphabet_size);

/// The model over the kept tokens: their names and embedding rows, everything else as in `model`.
Model merged_model(const Model& model, const TokenMerge& merge);

/// A statistic of the merged model's shape as one of the original shape (period Δ): each window token and each
/// count (n_{s,r} at s·Δ + r) moved to its kept token's original index, the merged-away tokens' counts 0.
Statistic unmerged_statistic(const Statistic& sigma, const TokenMerge& merge, std::size_t period);

/// The curve of the merged pair with its argmax statistics made those of the original pair (unmerged_statistic).
void unmerge_curve(DistanceCurve& curve, const TokenMerge& merge, std::size_t period);

}  // namespace lgc
