#pragma once
// lgcheck's whole command line: parse argv, run the chosen subcommand, and
// return the exit code (0 success, 1 refuted, 2 usage or input error,
// 3 undecided). Never throws.
namespace lgc::cli {

int lgcheck_main(int argc, char** argv);

}  // namespace lgc::cli
