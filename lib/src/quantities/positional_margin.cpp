#include "lgcheck/quantities/positional_margin.hpp"

#include <algorithm>
#include <stdexcept>

namespace lgc {

std::string to_string(Regime r) {
  switch (r) {
    case Regime::TokenDominant: return "token-dominant";
    case Regime::Balanced: return "balanced";
    case Regime::PositionDominant: return "position-dominant";
  }
  return "?";
}

PositionalMargin positional_margin(const Model& model, bool with_bulk) {
  if (model.layers.empty()) throw std::invalid_argument("positional_margin: the model has no layer");
  PositionalMargin m;
  const auto& heads = model.layers[0].heads;
  for (std::size_t h = 0; h < heads.size(); ++h) {
    HeadRegime r;
    r.head = h;
    Rational top_phi = *std::max_element(heads[h].phi.begin(), heads[h].phi.end());
    r.regime = top_phi < 1 ? Regime::TokenDominant : (top_phi == 1 ? Regime::Balanced : Regime::PositionDominant);
    r.P.assign(heads[h].phi.begin(), heads[h].phi.end());
    if (with_bulk) r.P.push_back(1);
    std::sort(r.P.begin(), r.P.end(), [](const Rational& a, const Rational& b) { return a > b; });
    r.P.erase(std::unique(r.P.begin(), r.P.end()), r.P.end());
    if (r.P.size() > 1) r.gamma = r.P[0] - r.P[1];
    if (r.gamma && (!m.gamma || *r.gamma < *m.gamma)) m.gamma = r.gamma;
    m.heads.push_back(std::move(r));
  }
  return m;
}

}  // namespace lgc
