#pragma once
// Shared helpers of the test suite: paths, a seeded generator that reports
// its seed, random rationals, and running the lgcheck binary.
#include "lgcheck/model/case_file.hpp"
#include "lgcheck/model/model.hpp"
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
  const long n = num(rng);  // in this order on every compiler (argument order is unspecified)
  const long d = den(rng);
  return Rational(n, d);
}

/// A random one-layer model: S tokens, period Δ, locality τ, random small
/// rational parameters, `heads` heads, an MLP when asked.
inline Model random_one_layer_model(std::mt19937_64& rng, std::size_t S, std::size_t D, std::size_t tau, std::size_t heads,
                        bool mlp) {
  Model m;
  m.name = "random";
  for (std::size_t s = 0; s < S; ++s) m.alphabet.push_back(std::string(1, static_cast<char>('a' + s)));
  m.width = 3;
  m.period = D;
  m.locality = tau;
  auto rnd = [&](long max) { return random_rational(rng, max); };
  auto matrix = [&](std::size_t r, std::size_t c, long max) {
    QMatrix x(r, c);
    for (std::size_t i = 0; i < r; ++i)
      for (std::size_t j = 0; j < c; ++j) x(i, j) = rng() % 3 == 0 ? Rational(0) : rnd(max);
    return x;
  };
  m.embedding = matrix(S, 3, 2);
  m.positional = matrix(D, 3, 2);
  Layer layer;
  for (std::size_t h = 0; h < heads; ++h) {
    Head head{matrix(3, 3, 2), matrix(3, 3, 3), {}};
    for (std::size_t t = 0; t <= tau; ++t) head.phi.push_back(rnd(2));
    layer.heads.push_back(head);
  }
  if (mlp) layer.mlp = Mlp{matrix(2, 3, 2), {rnd(2), rnd(2)}, matrix(3, 2, 2), {rnd(1), rnd(1), rnd(1)}};
  m.layers = {layer};
  m.readout = {matrix(2, 3, 2), {rnd(1), rnd(1)}, std::nullopt};
  return m;
}


struct RunResult {
  int exit_code = -1;
  std::string out;
};

/// Runs build/lgcheck with `args` (a shell-quoted string); stdout captured,
/// stderr folded into `out` when `with_stderr`.
/// Runs a shell command: its stdout, and its exit code (-1 on a signal).
inline RunResult run_command(const std::string& command) {
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

inline RunResult run_lgcheck(const std::string& args, bool with_stderr = false) {
  return run_command(std::string(LGCHECK_BINARY) + " " + args + (with_stderr ? " 2>&1" : " 2>/dev/null"));
}

/// Runs build/lgcheck under a hard time limit (a hang is a failure, not a
/// wait): stdout and stderr together; exit code -1 on a signal or the limit.
inline RunResult run_lgcheck_within(const std::string& args, unsigned seconds) {
  RunResult r = run_command("timeout -s KILL " + std::to_string(seconds) + " " + std::string(LGCHECK_BINARY) + " " + args +
                            " 2>&1");
  if (r.exit_code == 137) r.exit_code = -1;  // killed by timeout
  return r;
}

}  // namespace lgc::test
