#include "lgcheck/quantities/logit_margin.hpp"

#include <algorithm>

namespace lgc {
namespace {

QVector class_embedding(const Model& model, int token, std::size_t residue) {
  return add(model.embedding.row(static_cast<std::size_t>(token)), model.positional.row(residue % model.period));
}

/// f(h, y, r) for every first-layer head h, query token y and residue r.
template <class F>
void for_each_head_query(const Model& model, F&& f) {
  for (std::size_t h = 0; h < model.layers.at(0).heads.size(); ++h)
    for (int y = 0; y < static_cast<int>(model.alphabet_size()); ++y)
      for (std::size_t r = 0; r < model.period; ++r) f(h, y, r);
}

/// Keeps the smaller gap (the first met on ties) with its witness.
void offer(LogitMargin& result, const Rational& gap, const LogitMarginWitness& witness) {
  if (!result.gamma || gap < *result.gamma) {
    result.gamma = gap;
    result.witness = witness;
  }
}

}  // namespace

std::vector<ValuedKey> valued_keys(const Model& model, std::size_t head, int query_token, std::size_t residue) {
  const Head& h = model.layers.at(0).heads.at(head);
  const std::size_t period = model.period;
  const QVector query = class_embedding(model, query_token, residue), mq = apply<Rational>(h.qk, query);
  std::vector<ValuedKey> keys;
  auto add_key = [&](const QVector& key, const Rational& phi) {
    keys.push_back({dot<Rational>(key, mq) + phi, apply<Rational>(h.value, key)});
  };
  for (int s = 0; s < static_cast<int>(model.alphabet_size()); ++s) {
    for (std::size_t r = 0; r < period; ++r) add_key(class_embedding(model, s, r), 0);
    for (std::size_t t = 1; t <= model.locality; ++t)
      add_key(class_embedding(model, s, (residue + period * (t / period + 1) - t) % period), h.phi[t]);
  }
  add_key(query, h.phi[0]);
  std::stable_sort(keys.begin(), keys.end(), [](const ValuedKey& a, const ValuedKey& b) { return a.logit < b.logit; });
  return keys;
}

std::vector<Rational> attainable_logits(const Model& model, std::size_t head, int query_token, std::size_t residue) {
  std::vector<Rational> logits;
  for (const ValuedKey& k : valued_keys(model, head, query_token, residue)) logits.push_back(k.logit);
  logits.erase(std::unique(logits.begin(), logits.end()), logits.end());  // sorted already
  return logits;
}

LogitMargin logit_margin(const Model& model) {
  LogitMargin result;
  for_each_head_query(model, [&](std::size_t h, int y, std::size_t r) {
    std::vector<Rational> a = attainable_logits(model, h, y, r);
    for (std::size_t k = 1; k < a.size(); ++k) offer(result, a[k] - a[k - 1], {h, y, r, a[k - 1], a[k]});
  });
  return result;
}

LogitMargin value_margin(const Model& model) {
  LogitMargin result;
  for_each_head_query(model, [&](std::size_t h, int y, std::size_t r) {
    const std::vector<ValuedKey> keys = valued_keys(model, h, y, r);
    // Levels: runs of keys of one logit, ascending.
    std::vector<std::size_t> starts;
    for (std::size_t k = 0; k < keys.size(); ++k)
      if (k == 0 || keys[k].logit != keys[k - 1].logit) starts.push_back(k);
    starts.push_back(keys.size());
    auto carries_only = [&](std::size_t level, const QVector& v) {
      for (std::size_t k = starts[level]; k < starts[level + 1]; ++k)
        if (keys[k].value != v) return false;
      return true;
    };
    for (std::size_t top = 1; top + 1 < starts.size(); ++top) {
      // ℓ* = the top level's logit; walk down to the first level ℓ such that
      // the keys in [ℓ, ℓ*] do not all carry one value.
      const QVector& v = keys[starts[top]].value;
      bool uniform = carries_only(top, v);
      for (std::size_t low = top; low-- > 0;) {
        uniform = uniform && carries_only(low, v);
        if (uniform) continue;
        const Rational &lower = keys[starts[low]].logit, &upper = keys[starts[top]].logit;
        offer(result, upper - lower, {h, y, r, lower, upper});
        break;
      }
    }
  });
  return result;
}

}  // namespace lgc
