// libFuzzer target: random command lines over a few bundled cases, run
// in-process through lgcheck's driver. The bytes choose a subcommand, a case
// and a sequence of flags and values from small dictionaries (so every run
// stays short: lengths and counts come from the dictionary, and check and
// threshold always carry --budget 2000); a byte outside them passes a raw
// token. Any exit code 0-3 is fine; a crash, a sanitizer report, an escaped
// exception or an exit code outside 0-3 is a bug.
#include "cli/driver.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

namespace {

const std::vector<std::string> kCommands = {"info",   "eval",   "margin", "bound",  "simulate", "threshold",
                                            "check",  "claims", "gen",    "average", "merge",   "replay"};
const std::vector<std::string> kCases = {"paper/modp/modp_p2_hardmax.json",    "paper/modp/modp_p3_finite8.json",
                                         "paper/simple/simple_w2_sin.json",     "pairs/modp_p2_perturbed_pair.json",
                                         "witnesses/farey_hat_n4.json",         "average/presence_binding.json",
                                         "section5/regime_token.json",          "section5/attention_pair_flat.json",
                                         "section4/window_two_heads.json",      "paper/induction/induction_head_k1.json"};
const std::vector<std::string> kFlags = {
    "--epsilon", "--input",     "--theorem",   "--json",  "--max-length", "--length",  "--random",   "--semantics",
    "--claims",  "--threads",   "--precision-bits", "--alpha", "--method", "--samples", "--shard", "--all-positions",
    "--seed",    "--n",         "--p",         "--eta",   "--c",          "--log-power", "--precision", "--help",
    "modp",      "farey-hat",   "presence",    "--margin", "--a",         "--copy",     "--locality",   "--first-phi"};
const std::vector<std::string> kValues = {"1/10", "1/4",  "0",     "-1",   "abc",  "1/0",      "3",     "12",
                                          "0110", "ab",   "",      "4.1",  "4.2",  "5.2",      "hardmax", "finite:3",
                                          "softmax", "T4.1.*", "L4.L", "*",   "1,1",  "exact",    "monte-carlo",
                                          "0/2", "1/2",   "2",     "1e3",  "0.5",  "99999999999999999999", "@/dev/null"};

const std::string& pick(const std::vector<std::string>& from, std::uint8_t byte) { return from[byte % from.size()]; }

}  // namespace

// The commands' text goes nowhere (a sanitizer's report still reaches stderr:
// it writes to the file descriptor, not through std::cerr).
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  std::cout.rdbuf(nullptr);
  std::cerr.rdbuf(nullptr);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  std::vector<std::string> args = {"lgcheck", pick(kCommands, data[0])};
  const std::string command = args.back();
  if (command != "claims" && command != "gen") args.push_back(std::string(LGCHECK_SOURCE_DIR) + "/cases/" + pick(kCases, data[1]));
  for (std::size_t k = 2; k + 1 < size && args.size() < 16; k += 2) {
    const std::uint8_t kind = data[k], value = data[k + 1];
    if (kind < 128) args.push_back(pick(kFlags, kind));
    else if (kind < 250) args.push_back(pick(kValues, value));
    else args.push_back(std::string(1, static_cast<char>(value)));  // a raw one-character token
  }
  if (command == "check" || command == "threshold") {
    args.push_back("--budget");
    args.push_back("2000");
  }
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const int code = lgc::cli::lgcheck_main(static_cast<int>(args.size()), argv.data());
  if (code < 0 || code > 3) std::abort();
  return 0;
}
