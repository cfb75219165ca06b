#include "lgcheck/quantities/token_merge.hpp"

#include <stdexcept>

namespace lgc {
namespace {

/// Whether tokens s and t have the same embedding row in `model`.
bool same_row(const Model& model, std::size_t s, std::size_t t) {
  for (std::size_t k = 0; k < model.width; ++k)
    if (model.embedding(s, k) != model.embedding(t, k)) return false;
  return true;
}

}  // namespace

TokenMerge indistinguishable_tokens(const std::vector<const Model*>& models, bool first_model_only) {
  if (models.empty()) throw std::invalid_argument("indistinguishable_tokens: no model");
  const std::size_t S = models.front()->alphabet_size();
  for (const Model* m : models)
    if (m->alphabet_size() != S) throw std::invalid_argument("indistinguishable_tokens: the models differ in alphabet size");
  const std::size_t compared = first_model_only ? 1 : models.size();
  TokenMerge merge;
  for (std::size_t s = 0; s < S; ++s) {
    std::size_t i = 0;
    for (; i < merge.kept.size(); ++i) {
      bool same = true;
      for (std::size_t m = 0; m < compared && same; ++m) same = same_row(*models[m], merge.kept[i], s);
      if (same) break;
    }
    if (i == merge.kept.size()) merge.kept.push_back(s);
    merge.stands_for.push_back(i);
  }
  return merge;
}

std::vector<std::pair<std::size_t, std::size_t>> merged_away(const TokenMerge& merge) {
  std::vector<std::pair<std::size_t, std::size_t>> away;
  for (std::size_t s = 0; s < merge.stands_for.size(); ++s)
    if (merge.kept[merge.stands_for[s]] != s) away.emplace_back(s, merge.kept[merge.stands_for[s]]);
  return away;
}

TokenMerge every_token(std::size_t alphabet_size) {
  TokenMerge merge;
  for (std::size_t s = 0; s < alphabet_size; ++s) merge.kept.push_back(s), merge.stands_for.push_back(s);
  return merge;
}

Model merged_model(const Model& model, const TokenMerge& merge) {
  Model m = model;
  m.alphabet.clear();
  m.embedding = QMatrix(merge.kept.size(), model.width);
  for (std::size_t i = 0; i < merge.kept.size(); ++i) {
    m.alphabet.push_back(model.alphabet[merge.kept[i]]);
    for (std::size_t k = 0; k < model.width; ++k) m.embedding(i, k) = model.embedding(merge.kept[i], k);
  }
  return m;
}

Statistic unmerged_statistic(const Statistic& sigma, const TokenMerge& merge, std::size_t period) {
  Statistic s;
  s.length = sigma.length;
  for (const int token : sigma.window) s.window.push_back(static_cast<int>(merge.kept.at(static_cast<std::size_t>(token))));
  s.counts.assign(merge.stands_for.size() * period, 0);
  for (std::size_t i = 0; i < merge.kept.size(); ++i)
    for (std::size_t r = 0; r < period; ++r) s.counts[merge.kept[i] * period + r] = sigma.counts.at(i * period + r);
  return s;
}

void unmerge_curve(DistanceCurve& curve, const TokenMerge& merge, std::size_t period) {
  for (Statistic& sigma : curve.argmax) sigma = unmerged_statistic(sigma, merge, period);
}

}  // namespace lgc
