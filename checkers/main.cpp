// lgcheck: the command-line driver. Each subcommand lives in checkers/cli/.
#include "cli/commands.hpp"

#include "lgcheck/enumerate/budget.hpp"
#include "lgcheck/model/case_file.hpp"
#include "lgcheck/semantics/forward.hpp"

#include <iostream>
#include <vector>

int main(int argc, char** argv) {
  using namespace lgc;
  using namespace lgc::cli;
  CLI::App app{"lgcheck: exact and certified checks of the length-generalization bounds of Izzo, Nichani & Lee\n"
               "(arXiv 2510.27015). Cases are lgcheck-case/1 JSON files (see cases/ and docs/).\n"
               "Exit codes: 0 success / all proved, 1 something refuted, 3 undecided, 2 usage or input error.",
               "lgcheck"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("lgcheck ") + LGCHECK_VERSION);
  std::vector<Command> commands = {add_info(app),      add_eval(app),  add_margin(app), add_bound(app),
                                   add_simulate(app),  add_threshold(app), add_table(app), add_plot(app), add_check(app), add_merge(app),
                                   add_claims(app),    add_mutations(app), add_replay(app), add_gen(app),
                                   add_average(app)};
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : kExitUsage;
  }
  try {
    for (const auto& command : commands)
      if (*command.app) return command.run();
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
  }
}
