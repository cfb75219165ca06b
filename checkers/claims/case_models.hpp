#pragma once
// The one-layer models of a case (one, or the two of a pair), ready for the
// Section 4 checkers and commands.
#include "lgcheck/model/case_file.hpp"
#include "lgcheck/semantics/one_layer.hpp"

#include <memory>
#include <vector>

namespace lgc {

struct CaseModels {
  std::vector<std::unique_ptr<OneLayerEvaluator>> owned;
  std::vector<const OneLayerEvaluator*> models;
  unsigned precision_bits = 0;  ///< p of finite:p models, 0 for hardmax
};

/// True when every model of the case has one layer and is hardmax or finite:p.
bool is_section4_case(const Case& c);
/// A pair case whose two models are Section 4 models.
bool is_section4_pair(const Case& c);
/// True when every model of the case has one layer and is not softmax
/// (hardmax, finite:p or finite-weights:p).
bool is_one_layer_rounding_case(const Case& c);

/// p for claims comparing finite:p with hardmax: the case's own finite:p (or finite-weights:p), else
/// the check block's precision_bits, else `fallback`.
unsigned rounding_bits(const Case& c, unsigned fallback);

/// Evaluators for the case's models; precision from a finite:p semantics
/// (both models of a pair must agree), else 0. Throws std::invalid_argument
/// for a case that is not a Section 4 case.
CaseModels section4_models(const Case& c);
/// The same for any case of one-layer models that are not softmax (finite-weights:p too).
CaseModels one_layer_models(const Case& c);

}  // namespace lgc
