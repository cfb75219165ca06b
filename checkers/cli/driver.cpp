// The command-line driver: the subcommands of checkers/cli/ on one CLI11 app,
// refusals turned into exit codes. main.cpp and the command-line fuzzer call it.
#include "driver.hpp"

#include "commands.hpp"
#include "deadline.hpp"

#include "lgcheck/enumerate/budget.hpp"
#include "lgcheck/model/case_file.hpp"
#include "lgcheck/semantics/forward.hpp"

#include <cstdio>
#include <iostream>
#include <optional>
#include <vector>

namespace {

/// Every option whose value is unsigned refuses a negative number (CLI11
/// would wrap "-1" to 2^64 - 1), on every subcommand.
void refuse_negative_unsigned(CLI::App& app) {
  for (CLI::Option* option : app.get_options())
    if (option->get_type_name().rfind("UINT", 0) == 0) option->check(lgc::cli::non_negative_integer());
  for (CLI::App* sub : app.get_subcommands({})) refuse_negative_unsigned(*sub);
}

/// The command's exit code once its output reached standard output; a write
/// that failed (a full device, a closed pipe) is an error, not a result.
int written_or_usage_error(int code) {
  std::cout.flush();
  if (std::cout.fail() || std::fflush(stdout) != 0 || std::ferror(stdout)) {
    std::cerr << "lgcheck: cannot write the output to standard output (device full or closed?)\n";
    return lgc::cli::kExitUsage;
  }
  return code;
}

}  // namespace

namespace lgc::cli {

int lgcheck_main(int argc, char** argv) {
  CLI::App app{"lgcheck: exact and certified checks of the length-generalization bounds of Izzo, Nichani & Lee\n"
               "(arXiv 2510.27015). Cases are lgcheck-case/1 JSON files (see cases/ and docs/).\n"
               "Exit codes: 0 success / all proved, 1 something refuted, 3 undecided, 2 usage or input error.",
               "lgcheck"};
  app.require_subcommand(1);
  set_enumeration_budget(Budget{});  // a budget is per invocation (in-process callers run several)
  app.set_version_flag("--version", std::string("lgcheck ") + LGCHECK_VERSION);
  std::vector<Command> commands = {add_info(app),      add_eval(app),  add_margin(app), add_bound(app),
                                   add_simulate(app),  add_threshold(app), add_table(app), add_plot(app), add_check(app), add_merge(app),
                                   add_claims(app),    add_mutations(app), add_replay(app), add_gen(app),
                                   add_average(app)};
  refuse_negative_unsigned(app);
  if (argc == 1) {  // no arguments: the help, which lists the subcommands
    std::cout << app.help();
    return kExitUsage;
  }
  if (const std::string first = argv[1]; first[0] != '-') {
    std::string names;
    bool known = false;
    for (const CLI::App* sub : app.get_subcommands({})) {
      names += (names.empty() ? "" : ", ") + sub->get_name();
      known = known || sub->get_name() == first;
    }
    if (!known) {
      std::cerr << "lgcheck: unknown subcommand '" << first << "' (one of: " << names << ")\n";
      return kExitUsage;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    // A refused flag reads like every other refusal: "lgcheck: <flag>: <why>".
    std::cerr << "lgcheck: " << e.what() << "\nRun with --help for more information.\n";
    return kExitUsage;
  }
  try {
    for (const auto& command : commands)
      if (*command.app) {
        const std::string name = command.app->get_name();
        BudgetScope scope;  // --budget counts from the command's start (check restarts it per claim)
        // check and threshold stop cooperatively and keep their partial results;
        // the others get the wall-clock backstop as well.
        std::optional<Deadline> deadline;
        if (name != "check" && name != "threshold") deadline.emplace(name);
        return written_or_usage_error(command.run());
      }
    return kExitUsage;
  } catch (const CaseError& e) {
    std::cerr << "lgcheck: " << e.what() << "\n";
    return kExitUsage;
  } catch (const UsageError& e) {
    std::cerr << "lgcheck: " << e.what() << "\n";
    return kExitUsage;
  } catch (const BudgetExceeded& e) {
    std::cerr << "lgcheck: undecided: " << e.what() << " (raise --budget to decide)\n";
    return 3;
  } catch (const Undecided& e) {
    std::cerr << "lgcheck: undecided at the precision budget (" << e.precision_bits() << " bits): " << e.what() << "\n";
    return 3;
  } catch (const std::exception& e) {
    std::cerr << "lgcheck: " << e.what() << "\n";
    return kExitUsage;
  } catch (...) {
    std::cerr << "lgcheck: an unexpected error\n";
    return kExitUsage;
  }
}

}  // namespace lgc::cli
