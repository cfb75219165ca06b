#pragma once
// The lgcheck subcommands, one registration function per command: each adds
// its options to the app and returns what to run when it is chosen.
#include "cli_support.hpp"

#include "lgcheck/model/case_file.hpp"

namespace lgc::cli {

Command add_info(CLI::App& app);
Command add_eval(CLI::App& app);
Command add_margin(CLI::App& app);
Command add_bound(CLI::App& app);
Command add_simulate(CLI::App& app);
Command add_threshold(CLI::App& app);
Command add_table(CLI::App& app);
Command add_plot(CLI::App& app);
Command add_merge(CLI::App& app);
Command add_check(CLI::App& app);
Command add_claims(CLI::App& app);
Command add_mutations(CLI::App& app);
Command add_replay(CLI::App& app);
Command add_gen(CLI::App& app);
Command add_average(CLI::App& app);

/// `lgcheck bound --theorem 4.2`: the flags it reads.
struct BoundInputs {
  std::string file, epsilon, c, alpha;
  unsigned log_power = 0;
  bool json = false;
  bool c_given = false;  ///< --c on the command line (5.2: else the case's subsample_constant)
};
int cmd_bound_theorem42(const BoundInputs& in);
/// `lgcheck bound --theorem 5.2`: C(f) per model and N_variant_A/B.
int cmd_bound_theorem52(const BoundInputs& in);

/// `lgcheck simulate` on a softmax model: the flags it reads.
struct SoftmaxSimulateInputs {
  std::string file, input, epsilon;
  std::uint64_t random_length = 0, seed = 1, length = 0, seeds = 8;
  bool json = false, quiet = false;
};
int cmd_simulate_softmax(const Case& c, const SoftmaxSimulateInputs& in);

}  // namespace lgc::cli
