#pragma once
// Shared helpers of the test suite: paths, a seeded generator that reports
// its seed, random rationals, and running the lgcheck binary.
#include "lgcheck/model/case_file.hpp"
#include "lgcheck/numeric/rational.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>

namespace lgc::test {

inline std::filesystem::path source_dir() { return LGCHECK_SOURCE_DIR; }
inline std::filesystem::path case_path(const std::string& relative) { return source_dir() / "cases" / relative; }
inline Case bundled(const std::string& relative) { return load_case(case_path(relative)); }

/// The seed of random tests: LGCHECK_TEST_SEED when set, else 20261130.
inline std::uint64_t test_seed() {
  const char* s = std::getenv("LGCHECK_TEST_SEED");
  return s ? std::strtoull(s, nullptr, 10) : 20261130u;
}

/// A random rational with numerator in [-max, max] and denominator in [1, max].
inline Rational random_rational(std::mt19937_64& rng, long max = 1000) {
  std::uniform_int_distribution<long> num(-max, max), den(1, max);
  return Rational(num(rng), den(rng));
}

struct RunResult {
  int exit_code = -1;
  std::string out;
};

/// Runs build/lgcheck with `args` (a shell-quoted string); stdout captured,
/// stderr folded into `out` when `with_stderr`.
inline RunResult run_lgcheck(const std::string& args, bool with_stderr = false) {
  std::string command = std::string(LGCHECK_BINARY) + " " + args + (with_stderr ? " 2>&1" : " 2>/dev/null");
  RunResult r;
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buffer[4096];
  std::size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) r.out.append(buffer, n);
  int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

}  // namespace lgc::test
