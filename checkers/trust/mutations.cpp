#include "trust/mutations.hpp"

#include "output/progress.hpp"
#include "output/tables.hpp"
#include "trust/registry.hpp"

namespace lgc {

bool refutes_for_the_stated_reason(const Mutation& m, const ClaimResult& r) {
  return r.verdict == Verdict::Refuted && !m.counterexample.empty() && r.detail.find(m.counterexample) != std::string::npos;
}

const std::vector<Mutation>& mutation_registry() {
  static const std::vector<Mutation> registry = [] {
    std::vector<Mutation> all;
    for (const ClaimDeclaration& d : claim_declarations()) all.insert(all.end(), d.mutations.begin(), d.mutations.end());
    return all;
  }();
  return registry;
}

std::string mutation_table(const std::filesystem::path& cases_dir) {
  std::string out =
      "| claim | mutation | what is broken | the counterexample shows | case | verdict |\n|---|---|---|---|---|---|\n";
  const auto& mutations = mutation_registry();
  for (std::size_t k = 0; k < mutations.size(); ++k) {
    const auto& m = mutations[k];
    report_progress(k, mutations.size(), m.claim + ": " + m.name);
    ClaimResult r = m.run(cases_dir);
    const std::string verdict = r.verdict == Verdict::Refuted && !refutes_for_the_stated_reason(m, r)
                                    ? "REFUTED for another reason"
                                    : to_string(r.verdict);
    out += "| `" + m.claim + "` | " + markdown_cell(m.name) + " | " + markdown_cell(m.description) + " | `" +
           markdown_cell(m.counterexample) + "` | `" + m.case_file + "` | " + verdict + " |\n";
  }
  return out;
}

}  // namespace lgc
