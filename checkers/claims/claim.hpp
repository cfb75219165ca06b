#pragma once
// What a claim is, in one declaration: a stable id, a one-line statement, the
// semantics it applies to, the docs section proving it, how it runs and
// replays, and the mutations that must break it. Each claim's file ends with
// its declaration (claims/declarations.hpp lists them); trust/registry.cpp
// and trust/mutations.cpp collect them in a fixed order.
#include "lgcheck/model/case_file.hpp"
#include "lgcheck/report/verdict.hpp"

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace lgc {

struct Claim {
  std::string id;
  std::string statement;
  std::string semantics;  ///< which semantics the claim is about
  std::string docs;       ///< where docs/ proves or derives it
  std::function<bool(const Case&)> applies;
  std::function<ClaimResult(const Case&)> run;
  /// The trusted re-check of a certificate: like run, but every result of
  /// untrusted search (the z of the construction, a witness found by search)
  /// is taken from the certificate's evidence instead of recomputed.
  std::function<ClaimResult(const Case&, const nlohmann::json& evidence)> replay;
};

/// A deliberate break of a claim's constants that its checker must REFUTE on
/// a bundled case (lgcheck mutations; a claim without one proves nothing).
struct Mutation {
  std::string claim;        ///< the claim id it breaks
  std::string name;         ///< short, stable
  std::string description;  ///< what was broken
  std::string case_file;    ///< relative to the cases directory
  std::function<ClaimResult(const std::filesystem::path& cases_dir)> run;
  /// What the REFUTED detail must show: the inequality the mutation breaks,
  /// so that a refutation for another reason (a side check) does not count.
  std::string counterexample = {};
};

/// One claim and its mutations, declared together in the claim's file.
struct ClaimDeclaration {
  Claim claim;
  std::vector<Mutation> mutations;
};

/// The run of a claim: `check(case)`, stamped with the case name.
template <class F>
std::function<ClaimResult(const Case&)> named(F check) {
  return [check](const Case& c) {
    ClaimResult r = check(c);
    r.case_name = c.name;
    return r;
  };
}

/// The replay of a claim whose run involves no search: the run itself.
template <class F>
std::function<ClaimResult(const Case&, const nlohmann::json&)> rerun(F check) {
  return [check](const Case& c, const nlohmann::json&) {
    ClaimResult r = check(c);
    r.case_name = c.name;
    return r;
  };
}

/// The text of a mutation: its name, what it breaks, what the REFUTED detail
/// must show, and the bundled case it runs on.
struct MutationText {
  std::string name;
  std::string description;
  std::string counterexample;
  const char* case_file;
};

/// A mutation that loads its case, reads the claim's parameters from it,
/// edits them and runs the claim's check.
template <class Params>
Mutation edited_params_mutation(const std::string& claim, MutationText text, Params (*params_of)(const Case&),
                                ClaimResult (*check)(const Case&, const Params&), std::function<void(Params&)> edit) {
  const char* file = text.case_file;
  return {claim, std::move(text.name), std::move(text.description), file,
          [file, params_of, check, edit](const std::filesystem::path& dir) {
            const Case c = load_case(dir / file);
            Params p = params_of(c);
            edit(p);
            return check(c, p);
          },
          std::move(text.counterexample)};
}

/// The parameter-editing mutations of one claim, bound once to its id, its
/// parameter reader and its check: `mutation(text, edit)` is
/// edited_params_mutation(claim, text, params_of, check, edit).
template <class Params>
struct ParamsMutation {
  const char* claim;
  Params (*params_of)(const Case&);
  ClaimResult (*check)(const Case&, const Params&);

  Mutation operator()(MutationText text, std::function<void(Params&)> edit) const {
    return edited_params_mutation<Params>(claim, std::move(text), params_of, check, std::move(edit));
  }
};

}  // namespace lgc
