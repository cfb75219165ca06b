#include "claims/case_models.hpp"

#include <stdexcept>

namespace lgc {

bool is_section4_case(const Case& c) {
  for (const auto& m : c.models)
    if (m.layers.size() != 1 || !(m.semantics.kind == Semantics::Kind::Hardmax || m.semantics.kind == Semantics::Kind::Finite))
      return false;
  return true;
}

bool is_section4_pair(const Case& c) { return c.is_pair && is_section4_case(c); }

bool is_one_layer_rounding_case(const Case& c) {
  for (const auto& m : c.models)
    if (m.layers.size() != 1 || m.semantics.kind == Semantics::Kind::Softmax) return false;
  return true;
}

unsigned rounding_bits(const Case& c, unsigned fallback) {
  const Model& m = c.model();
  if (m.semantics.rounds()) return m.semantics.bits;
  return static_cast<unsigned>(c.check_count("precision_bits", fallback));
}

CaseModels section4_models(const Case& c) {
  if (!is_section4_case(c)) {
    const bool weights = c.model().semantics.kind == Semantics::Kind::FiniteWeights;
    throw std::invalid_argument(c.file + ": Section 4 needs one-layer hardmax or finite:p models" +
                                (weights ? std::string(" (finite-weights:p is read by eval, margin, average and the "
                                                       "claim T4.1.threshold only)")
                                         : std::string()));
  }
  return one_layer_models(c);
}

CaseModels one_layer_models(const Case& c) {
  if (!is_one_layer_rounding_case(c))
    throw std::invalid_argument(c.file + ": needs one-layer hardmax, finite:p or finite-weights:p models");
  CaseModels cm;
  bool first = true;
  for (const auto& m : c.models) {
    unsigned p = m.semantics.rounds() ? m.semantics.bits : 0;
    if (!first && (p != cm.precision_bits || m.semantics.kind != c.models.front().semantics.kind))
      throw std::invalid_argument(c.file + ": the two models of a pair must have the same semantics");
    cm.precision_bits = p;
    first = false;
    cm.owned.push_back(std::make_unique<OneLayerEvaluator>(m));
    cm.models.push_back(cm.owned.back().get());
  }
  return cm;
}

}  // namespace lgc
