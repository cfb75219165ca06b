// lgcheck: the command-line driver (checkers/cli/driver.cpp); each
// subcommand lives in checkers/cli/.
#include "cli/driver.hpp"

int main(int argc, char** argv) { return lgc::cli::lgcheck_main(argc, argv); }
