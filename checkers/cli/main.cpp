// lgcheck: the command-line driver (checkers/cli/driver.cpp); each
// subcommand lives in checkers/cli/.
#include "cli/driver.hpp"

#include "cli/deadline.hpp"

int main(int argc, char** argv) {
  lgc::cli::enable_hard_deadline();  // a time --budget may end this process (not an in-process caller)
  return lgc::cli::lgcheck_main(argc, argv);
}
