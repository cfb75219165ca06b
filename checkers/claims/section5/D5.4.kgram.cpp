// D5.4.kgram: the two-layer construction approximates the in-context k-gram
// target within ε on inputs with match fraction >= ρ
// (docs/theory.md#the-in-context-k-gram-construction).
#include "claims/agreement.hpp"
#include "claims/declarations.hpp"
#include "lgcheck/enumerate/ordered_search.hpp"
#include "lgcheck/enumerate/strings.hpp"
#include "lgcheck/enumerate/visit_digest.hpp"
#include "lgcheck/quantities/positional_margin.hpp"
#include "lgcheck/semantics/softmax_linear.hpp"
#include "lgcheck/tasks/kgram.hpp"
#include "claims/section5/section5.hpp"

#include <fmt/format.h>

#include <mutex>

#include <random>

namespace lgc {
namespace {

/// A random input of length T that tends to have many context matches: a
/// random word u of length 1..k+1 repeated, each token replaced by a random
/// one with probability `noise`.
Tokens repetitive_input(std::size_t S, std::size_t k, std::uint64_t T, double noise, std::mt19937_64& rng) {
  Tokens u = random_string(S, static_cast<std::size_t>(uniform_integer(1, k + 1, rng)), rng);
  std::bernoulli_distribution mutate(noise);
  Tokens x(T);
  for (std::uint64_t t = 0; t < T; ++t) x[t] = mutate(rng) ? static_cast<int>(uniform_integer(0, S - 1, rng)) : u[t % u.size()];
  return x;
}

/// The input on which the lemma's first-k term is largest, with the match
/// fraction as close to rho as blocks allow: x = a^k c (a^k b c^pad)* ... a^k.
/// Its first k positions copy only a's, so they score beta·k like a match,
/// while the matching positions (the b's after each a^k) make f* = e_b
/// (docs/theory.md, The in-context k-gram construction). pad is the largest
/// keeping the fraction >= rho; nullopt when even pad = 0 falls short.
std::optional<Tokens> hard_input(std::size_t S, std::size_t k, std::uint64_t T, const Rational& rho) {
  if (T < 2 * k + 1) return std::nullopt;
  const int a = 0, b = 1, c = S >= 3 ? 2 : 1;
  for (long pad = static_cast<long>(floor(Rational(1) / rho)); pad >= 0; --pad) {
    Tokens x(k, a);
    x.push_back(c);
    Tokens block(k, a);
    block.push_back(b);
    block.insert(block.end(), static_cast<std::size_t>(pad), c);
    for (std::size_t t = 0; x.size() + k < T; ++t) x.push_back(block[t % block.size()]);
    x.insert(x.end(), k, a);
    if (kgram_match_fraction(k, x) >= rho) return x;
  }
  return std::nullopt;
}

struct KgramScan {
  std::uint64_t inputs = 0;
  Rational worst = 0;
  std::optional<std::string> refuted, undecided;
};

void check_input(const Model& m, const SoftmaxLinearEvaluator& eval, const KgramParams& params, const Tokens& x,
                 KgramScan& s) {
  if (kgram_match_fraction(params.k, x) < params.rho) return;
  ++s.inputs;
  QVector target = kgram_target(m.alphabet_size(), params.k, x);
  Vector<Number> want(target.begin(), target.end());
  Number err = max_abs_difference(eval.evaluate(x), want);
  // Undecided on the cheap enclosure: ask again at full precision.
  if (upper_of(err) > params.epsilon && lower_of(err) <= params.epsilon)
    err = max_abs_difference(eval.precise_evaluate(x), want);
  s.worst = std::max(s.worst, upper_of(err));
  if (upper_of(err) <= params.epsilon) return;
  std::string shown = format_input(m, x);
  if (shown.size() > 60) shown = shown.substr(0, 30) + "..." + shown.substr(shown.size() - 20);
  std::string where = fmt::format("input {} (T = {}, match fraction {}): |f - f*| = {} > eps = {}", shown, x.size(),
                                  to_string(kgram_match_fraction(params.k, x)), show(err, 8), to_string(params.epsilon));
  if (lower_of(err) > params.epsilon)
    s.refuted = where;
  else
    s.undecided = where;
}

/// Every string of length T, over the threads. Counts and the worst error
/// are order-independent, so the threads' parts are simply added; when some
/// string fails, the length is scanned again on one thread up to the first
/// failure, so the failure reported is the first in lexicographic order.
void scan_strings(const Model& m, const SoftmaxLinearEvaluator& eval, const KgramParams& params, std::uint64_t T,
                  KgramScan& s, VisitDigest& visited) {
  KgramScan length_scan;
  std::mutex mutex;
  const auto failed = first_string_where(m.alphabet_size(), T, 0, [&](const Tokens& x, std::uint64_t) {
    KgramScan one;
    check_input(m, eval, params, x, one);
    if (one.refuted || one.undecided) return true;
    if (one.inputs > 0) visited.add(x);  // inside the domain (match fraction >= rho) and checked
    std::lock_guard<std::mutex> lock(mutex);
    length_scan.inputs += one.inputs;
    length_scan.worst = std::max(length_scan.worst, one.worst);
    return false;
  });
  if (!failed) {
    s.inputs += length_scan.inputs;
    s.worst = std::max(s.worst, length_scan.worst);
    return;
  }
  for_each_string(m.alphabet_size(), T, [&](const Tokens& x) {
    check_input(m, eval, params, x, s);
    return !s.refuted && !s.undecided;
  });
}

}  // namespace

/// A softmax model with one output per token (f* is a distribution over the tokens) whose case names k.
bool is_kgram_case(const Case& c) {
  return !c.is_pair && c.model().semantics.kind == Semantics::Kind::Softmax && c.check.contains("kgram_k") &&
         c.model().readout.weights.rows() == c.model().alphabet_size();
}

KgramParams kgram_params(const Case& c) {
  KgramParams p;
  p.k = c.check_count("kgram_k", p.k);
  p.epsilon = c.check_rational("epsilon", p.epsilon);
  p.rho = c.check_rational("rho", p.rho);
  p.max_length = c.check_count("max_length", p.max_length);
  p.random_inputs = c.check_count("random_inputs", p.random_inputs);
  p.seed = c.check_count("seed", p.seed);
  return p;
}

ClaimResult check_kgram(const Case& c, const KgramParams& params) {
  ClaimResult r;
  r.id = kKgramId;
  r.case_name = c.name;
  const Model& m = c.model();
  const std::size_t S = m.alphabet_size();
  const std::uint64_t T0 = params.from_min_length ? kgram_min_length(params.epsilon, params.rho, params.k) : params.k + 1;
  PositionalMargin pm = positional_margin(m);
  r.evidence = {{"k", params.k},       {"epsilon", to_string(params.epsilon)}, {"rho", to_string(params.rho)},
                {"min_length", T0},    {"gamma", pm.gamma ? to_string(*pm.gamma) : "inf"}};
  if (pm.gamma && *pm.gamma < 1) {
    r.verdict = Verdict::Refuted;
    r.detail = "the positional margin is " + to_string(*pm.gamma) + " < 1";
    return r;
  }
  KgramScan s;
  const SoftmaxLinearEvaluator eval(m);
  std::uint64_t exhaustive_to = 0, spent = 0;
  VisitDigest visited;
  for (std::uint64_t T = T0; T <= params.max_length && !s.refuted && !s.undecided; ++T) {
    std::uint64_t count = string_count(S, T);
    if (count == UINT64_MAX || spent + count > params.exhaustive_budget) break;
    spent += count;
    exhaustive_to = T;
    scan_strings(m, eval, params, T, s, visited);
  }
  const std::uint64_t enumerated_inputs = s.inputs;
  // The constructed hard inputs, right from T0 (where the lemma's terms are largest).
  std::uint64_t hard = 0;
  for (std::uint64_t T = T0; T < T0 + params.hard_lengths && !s.refuted && !s.undecided; ++T)
    if (auto x = hard_input(S, params.k, T, params.rho)) {
      check_input(m, eval, params, *x, s);
      ++hard;
    }
  const std::uint64_t exhaustive_inputs = s.inputs;
  std::mt19937_64 rng(params.seed);
  std::uint64_t longest = 0;
  for (std::size_t j = 0; j < params.random_inputs && !s.refuted && !s.undecided; ++j) {
    std::uint64_t T = j + 2 < params.random_inputs ? T0 + j : std::min<std::uint64_t>(params.max_random_length,
                                                                                      j + 2 == params.random_inputs ? 1000 : 10000);
    T = std::max(T, T0);
    // Inputs below the match fraction are outside the claim: draw until one
    // is inside (at most 50 tries, less noise each time).
    for (int attempt = 0; attempt < 50; ++attempt) {
      Tokens x = repetitive_input(S, params.k, T, 0.3 / (1 + attempt), rng);
      if (kgram_match_fraction(params.k, x) < params.rho) continue;
      check_input(m, eval, params, x, s);
      break;
    }
    longest = std::max(longest, T);
  }
  r.evidence["inputs"] = s.inputs;
  r.evidence["worst_error"] = to_decimal(s.worst, 6);
  if (s.refuted) {
    r.verdict = Verdict::Refuted;
    r.detail = *s.refuted;
  } else if (s.undecided) {
    r.verdict = Verdict::Undecided;
    r.detail = "not separated from eps: " + *s.undecided;
  } else {
    r.scope.domain = (exhaustive_to ? fmt::format("every input of length {}..{} with match fraction >= rho ({}), ", T0,
                                                  exhaustive_to, enumerated_inputs)
                                    : std::string()) +
                     fmt::format("{} constructed hard inputs (first k positions scoring like a match, match fraction "
                                 "near rho) at T = {}..{}",
                                 hard, T0, T0 + params.hard_lengths - 1);
    r.scope.exhaustive = exhaustive_inputs;
    if (exhaustive_to) r.evidence["visited"] = visited.to_json();
    r.scope.samples = s.inputs - exhaustive_inputs;
    r.scope.seed = params.seed;
    r.scope.caps.push_back({fmt::format("strings enumerated on lengths T0 = {}..{}", T0, params.max_length),
                            params.exhaustive_budget, exhaustive_to < params.max_length});
    r.scope.decided_by = "certified |f(x) - f*(x)| against eps; gamma >= 1 exactly";
    if (s.inputs == 0) r.scope.vacuous = "no input checked has match fraction >= rho";
    if (params.epsilon > 0) r.scope.slack = to_decimal(s.worst / params.epsilon, 4) + " (worst error / eps)";
    r.verdict = holding_verdict(r.scope);
    std::string exhaustive = (exhaustive_to ? fmt::format("every input of length {}..{}", T0, exhaustive_to)
                                            : fmt::format("no length >= T0 = {} within the exhaustive budget", T0)) +
                             fmt::format(", {} hard inputs from T0", hard);
    r.detail = fmt::format("|f(x) - f*(x)| <= eps = {} on {} inputs with match fraction >= {} ({}; random repetitive "
                           "ones from T0 up to T = {}); worst error {}; gamma = {} >= 1",
                           to_string(params.epsilon), s.inputs, to_string(params.rho), exhaustive, longest,
                           to_decimal(s.worst, 4), pm.gamma ? to_string(*pm.gamma) : "inf");
  }
  return r;
}


// The claim and the mutations that must break it (claims/claim.hpp).
namespace {

constexpr const char* kKgram = "section5/kgram_k1_s2.json";

}  // namespace

ClaimDeclaration kgram_declaration() {
  const auto check = [](const Case& c) { return check_kgram(c, kgram_params(c)); };
  return {{kKgramId,
           "the in-context k-gram construction: |f(x) - f*(x)| <= eps for every input of length >= T0 with match "
           "fraction >= rho, and gamma >= 1",
           "softmax", "docs/theory.md#the-in-context-k-gram-construction-paper-p15-task-toolkit-construction-and-proof",
           is_kgram_case, named(check), rerun(check)},
          {edited_params_mutation<KgramParams>(
              kKgramId, {"no minimum length", "the approximation claimed from length k + 1 instead of T0 = k + "
                         "5k/(2 rho eps) (the first k positions have no context)", "> eps", kKgram},
              kgram_params, check_kgram, [](KgramParams& p) {
                p.from_min_length = false;
                p.random_inputs = 0;
              })}};
}

}  // namespace lgc
