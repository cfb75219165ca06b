// Witness re-checks with the kernel's forward pass (docs/kernel.md).
#include "lgcheck/kernel/witness.hpp"

#include "lgcheck/kernel/construction.hpp"
#include "lgcheck/kernel/json_read.hpp"
#include "lgcheck/model/input.hpp"

#include <algorithm>
#include <map>

namespace lgc::kernel {

Bracket difference_bracket(const Values& a, const Values& b) {
  if (a.size() != b.size()) throw std::invalid_argument("the two outputs have different sizes");
  Bracket out{0, 0};
  for (std::size_t k = 0; k < a.size(); ++k) {
    Number d = abs(a[k] - b[k]);
    out.lo = std::max(out.lo, lower_of(d));
    out.hi = std::max(out.hi, upper_of(d));
  }
  return out;
}

std::uint64_t expansion_limit(const Model& m) { return m.layers.size() <= 1 ? kMaxExpandedLength : 1000; }

Bracket rounding_gap(const Model& m, const Tokens& x, Semantics rounding, unsigned bits) {
  return difference_bracket(last_representation(m, x, rounding, bits),
                            last_representation(m, x, Semantics::hardmax(), bits));
}

StringGap string_gap(const Case& c, const Tokens& x, unsigned bits) {
  const Model &f = c.models[0], &g = c.models[1];
  Values af = readout_argument(f, last_representation(f, x, f.semantics, bits)),
         ag = readout_argument(g, last_representation(g, x, g.semantics, bits));
  // One activation: at a coordinate of equal arguments f_k(x) = g_k(x) exactly, where two sin enclosures would not
  // show it; the exact 0 there (sin of the exact 0 is exact), and for |f − g|∞ when every argument is equal.
  if (f.readout.sin_omega == g.readout.sin_omega)
    for (std::size_t k = 0; k < af.size() && k < ag.size(); ++k)
      if (af[k] == ag[k]) af[k] = ag[k] = Number(0);
  const Values fx = activate(f, std::move(af), bits), gx = activate(g, std::move(ag), bits);
  const auto exact = [](const Values& v) {
    return std::all_of(v.begin(), v.end(), [](const auto& y) { return y.is_exact(); });
  };
  return {difference_bracket(fx, gx), exact(fx) && exact(gx)};
}

Bracket pair_gap(const Case& c, const Tokens& x, unsigned bits) { return string_gap(c, x, bits).d; }

namespace {

using nlohmann::json;

WitnessResult ok() { return {WitnessStatus::Reestablished, ""}; }
WitnessResult reject(std::string why) { return {WitnessStatus::Rejected, std::move(why)}; }
WitnessResult unchecked(std::string why) { return {WitnessStatus::NotReestablished, std::move(why)}; }
/// A rejection because the property certainly fails.
WitnessResult violation(std::string why) {
  WitnessResult r = reject(std::move(why));
  r.violated = true;
  return r;
}

/// A witness decided before its check ends: thrown by refuse (rejected) and leave (not re-established), returned by
/// check_witness.
struct Decided { WitnessResult result; };
[[noreturn]] void refuse(std::string why) { throw Decided{reject(std::move(why))}; }
[[noreturn]] void leave(std::string why) { throw Decided{unchecked(std::move(why))}; }

/// Charges `what`, of length T, to the certificate's budget of expanded positions; the witness is left not
/// re-established ("x has length ...") when it is too long for m or the budget is spent.
void charge(const WitnessContext& ctx, const Model& m, const char* what, std::uint64_t T) {
  const std::string has = std::string(what) + " has ";
  const std::uint64_t limit = expansion_limit(m);
  if (T > limit) leave(has + "length " + std::to_string(T) + " > " + std::to_string(limit) + ", not expanded");
  if (T > ctx.positions_left) {
    WitnessResult left = unchecked(std::string(what) + ": the certificate's budget of expanded positions is spent");
    left.over_budget = true;
    throw Decided{left};
  }
  ctx.positions_left -= T;
}

/// |f(x) − f(z)|∞, the exact 0 at each coordinate where the readout's arguments agree exactly (0 when all do).
Bracket output_distance(const Model& m, const Tokens& x, const Tokens& z, Semantics sx, Semantics sz, unsigned bits) {
  // An equal readout argument gives equal outputs at its coordinate: exactly 0, where two sin enclosures would not
  // show it.
  Values ax = readout_argument(m, last_representation(m, x, sx, bits)),
         az = readout_argument(m, last_representation(m, z, sz, bits));
  for (std::size_t k = 0; k < ax.size() && k < az.size(); ++k)
    if (ax[k] == az[k]) ax[k] = az[k] = Number(0);
  return difference_bracket(activate(m, std::move(ax), bits), activate(m, std::move(az), bits));
}

/// ω_h: the attention of each first-layer head at the last position, summed
/// over each bulk class (index s·Δ + r) and each window slot t (index SΔ + t).
std::vector<std::vector<Number>> class_attention(const Model& m, const Tokens& x, Semantics s, unsigned bits) {
  const std::size_t T = x.size(), K = m.alphabet_size() * m.period;
  const std::size_t bulk_end = T > m.locality + 1 ? T - m.locality - 1 : 0;  // B = T − τ − 1
  std::vector<std::vector<Number>> out;
  for (const auto& head : last_position_weights(m, x, s, bits)) {
    std::vector<Number> omega(K + m.locality + 1, Number(0));
    for (const KeyWeight& kw : head) {
      const std::size_t j = kw.key;
      std::size_t slot = j <= bulk_end ? static_cast<std::size_t>(x[j - 1]) * m.period + j % m.period : K + (T - j);
      omega[slot] += Number(Rational(Integer(kw.multiplicity))) * kw.weight;
    }
    out.push_back(std::move(omega));
  }
  return out;
}

/// The statistic under `key` (the witness is rejected when it is missing or not a statistic of m).
Statistic statistic_at(const json& w, const char* key, const Model& m) {
  if (!w.contains(key)) refuse(std::string(key) + ": missing");
  auto s = read_statistic(w[key], m);
  if (auto* e = std::get_if<std::string>(&s)) refuse(std::string(key) + ": " + *e);
  return std::get<Statistic>(std::move(s));
}

/// The statistics under "x" and "z": they must share the window and the query residue.
std::pair<Statistic, Statistic> statistic_pair(const json& w, const Model& m) {
  Statistic x = statistic_at(w, "x", m), z = statistic_at(w, "z", m);
  if (x.window != z.window || x.length % m.period != z.length % m.period)
    refuse("x and z differ in window or query residue");
  return {std::move(x), std::move(z)};
}

/// Hardmax unless both lengths reach the model's threshold (where finite:p is
/// claimed to equal hardmax; evaluating finite:p there checks that too).
Semantics semantics_for(const WitnessContext& ctx, std::size_t model, std::uint64_t T1, std::uint64_t T2) {
  const Model& m = ctx.c->models[model];
  if (m.semantics.kind != Semantics::Kind::Finite) return m.semantics;
  return Integer(std::min(T1, T2)) >= ctx.threshold[model] ? m.semantics : Semantics::hardmax();
}

/// The witness's model (0 when unrecorded).
std::size_t model_index(const json& w, const WitnessContext& ctx) {
  if (!w.contains("model")) return 0;
  std::string why;
  const auto i = read_count(w["model"], ctx.c->models.size() - 1, why);
  if (!i) refuse("model: " + why);
  return *i;
}

/// The recorded p must be the case's.
void require_p(std::uint64_t recorded, unsigned p) {
  if (recorded != p) refuse("p: recorded " + std::to_string(recorded) + ", the case gives " + std::to_string(p));
}

/// finite:p and hardmax differ at the recorded statistic (p the case's).
WitnessResult check_finite_differs(const json& w, const WitnessContext& ctx) {
  const std::size_t mi = model_index(w, ctx);
  const Model& m = ctx.c->models[mi];
  std::string why;
  auto p = count_at(w, "p", kMaxFiniteBits, &why);
  if (!p) return reject("p: " + (why.empty() ? std::string("missing") : why));
  require_p(*p, ctx.p[mi]);
  const Statistic sigma = statistic_at(w, "statistic", m);
  charge(ctx, m, "statistic", sigma.length);
  if (rounding_gap(m, expand(sigma, m), ctx.rounding[mi], ctx.bits).lo > 0) return ok();
  return reject(ctx.rounding[mi].str() + " and hardmax do not certainly differ at this statistic");
}

/// finite:p and hardmax differ at a query position of the recorded input string.
WitnessResult check_string_differs(const json& w, const WitnessContext& ctx) {
  const std::size_t mi = model_index(w, ctx);
  const Model& m = ctx.c->models[mi];
  if (!w.contains("input") || !w["input"].is_string()) return reject("input: expected the input string");
  const std::string& input = w["input"].get_ref<const std::string&>();
  charge(ctx, m, "input", input.size());
  Tokens x;
  try {
    x = parse_input(m, input);
  } catch (const std::exception& e) {
    return reject(std::string("input: ") + e.what());
  }
  auto i = count_at(w, "position", x.size());
  if (!i || *i == 0) return reject("position: expected a query position in 1.." + std::to_string(x.size()));
  x.resize(*i);  // causal: the representation at position i is that of the prefix
  std::string why;
  const auto recorded = count_at(w, "p", kMaxFiniteBits, &why);  // p is optional; a recorded one is read whole
  if (w.contains("p") && !recorded) return reject("p: " + why);
  const unsigned p = recorded ? static_cast<unsigned>(*recorded) : ctx.p[mi];
  require_p(p, ctx.p[mi]);
  if (rounding_gap(m, x, ctx.rounding[mi], ctx.bits).lo > 0) return ok();
  return reject("finite:p and hardmax do not certainly differ at this input and position");
}

const std::string kNotConstructed = "z is not the construction's";

/// The first class where two count vectors differ, as "(class c = token s, residue r: recorded a, built b)".
std::string first_difference(const Model& m, const Statistic& recorded, const Statistic& built) {
  std::size_t c = 0;
  while (c + 1 < built.counts.size() && recorded.counts[c] == built.counts[c]) ++c;
  return "(class " + std::to_string(c) + " = token " + std::to_string(c / m.period) + ", residue " +
         std::to_string(c % m.period) + ": recorded " + std::to_string(recorded.counts[c]) + ", built " +
         std::to_string(built.counts[c]) + ")";
}

/// |z| <= N_sim and |f(x) − f(z)|∞ <= ε for every model, by the forward pass of both expanded.
WitnessResult simulation_outputs(const WitnessContext& ctx, const Statistic& x, const Statistic& z) {
  const Model& f = ctx.c->model();
  if (Integer(z.length) > *ctx.n_sim)
    return violation("|z| = " + std::to_string(z.length) + " > N_sim = " + to_string(*ctx.n_sim));
  for (const Model& m : ctx.c->models) {
    charge(ctx, m, "x", x.length);
    charge(ctx, m, "z", z.length);
  }
  Tokens tx = expand(x, f), tz = expand(z, f);
  for (std::size_t mi = 0; mi < ctx.c->models.size(); ++mi) {
    Semantics s = semantics_for(ctx, mi, x.length, z.length);
    Bracket d = output_distance(ctx.c->models[mi], tx, tz, s, s, ctx.bits);
    if (d.hi > *ctx.epsilon) {
      const bool certain = d.lo > *ctx.epsilon;
      const std::string why = "model " + std::to_string(mi) + ": |f(x) - f(z)| " +
                              (certain ? "> " : "not certainly <= ") + "epsilon = " + to_string(*ctx.epsilon);
      return certain ? violation(why) : reject(why);
    }
  }
  return ok();
}

/// x and z with the same window and residue, z the kernel's construction of x (on statistics, never expanded), then
/// constructed_simulation.
WitnessResult check_simulation(const json& w, const WitnessContext& ctx) {
  if (!ctx.epsilon || !ctx.n_sim || !ctx.delta) return reject("no epsilon or N_sim to check a simulation against");
  const Model& f = ctx.c->model();
  const auto [x, z] = statistic_pair(w, f);
  const Statistic built = construction_of(ctx).build(x);
  if (built.length != z.length || built.counts != z.counts)
    return reject(kNotConstructed + ": recorded T=" + std::to_string(z.length) + ", the kernel builds T=" +
                  std::to_string(built.length) + " " + first_difference(f, z, built));
  return constructed_simulation(ctx, x, z);
}

/// L4.L at the recorded pair (norm_inequality), with the kernel's L, under hardmax: the claim's semantics whatever the
/// case's (ω_h are the hardmax weights of theory.md's lemma), as for the pairs the kernel draws itself.
WitnessResult check_norm_pair(const json& w, const WitnessContext& ctx) {
  const std::size_t mi = model_index(w, ctx);
  const Model& m = ctx.c->models[mi];
  if (!ctx.L[mi]) return reject("L(f) is not defined for this model (not one layer)");
  const auto [x, z] = statistic_pair(w, m);
  charge(ctx, m, "x", x.length);
  charge(ctx, m, "z", z.length);
  return norm_inequality(m, *ctx.L[mi], expand(x, m), expand(z, m), Semantics::hardmax(), ctx.bits);
}

/// |f − g|∞ at the recorded statistic is certainly at least the recorded at_least.
WitnessResult check_pair_distance(const json& w, const WitnessContext& ctx) {
  if (ctx.c->models.size() != 2) return reject("a pair_distance witness needs a pair case");
  std::string why;
  auto at_least = rational_at(w, "at_least", &why);
  if (!at_least) return reject("at_least: " + (why.empty() ? std::string("missing") : why));
  const Statistic sigma = statistic_at(w, "statistic", ctx.c->model());
  for (const Model& m : ctx.c->models) charge(ctx, m, "statistic", sigma.length);
  const Bracket d = pair_gap(*ctx.c, expand(sigma, ctx.c->model()), ctx.bits);
  if (d.lo >= *at_least) return ok();  // the LOWER end of the enclosure
  return reject("|f - g| at the statistic is not certainly >= " + to_string(*at_least) + " (enclosure [" +
                to_decimal(d.lo, 8) + ", " + to_decimal(d.hi, 8) + "])");
}

/// A witness recorded as a violation: re-established when its property certainly fails, rejected when it holds or
/// when its z is not the construction's.
WitnessResult expect_violation(const WitnessResult& r) {
  if (r.why.rfind(kNotConstructed, 0) == 0) return r;
  WitnessResult out = r.violated ? ok()
                      : r.status == WitnessStatus::Reestablished ? reject("expect \"violates\", but the property holds")
                      : r.status == WitnessStatus::Rejected ? unchecked("expect \"violates\", not certain: " + r.why)
                                                            : r;
  out.constructed = r.constructed;
  return out;
}

}  // namespace

const Construction& construction_of(const WitnessContext& ctx) {
  if (!ctx.construction) ctx.construction = std::make_shared<Construction>(ctx.c->models, ctx.resolution, ctx.padding);
  return *ctx.construction;
}

WitnessResult constructed_simulation(const WitnessContext& ctx, const Statistic& x, const Statistic& z) {
  WitnessResult r;
  const Rational distance = construction_of(ctx).attention_distance(x, z);
  if (distance > *ctx.delta)
    r = violation("max_h |w_h(x) - w_h(z)|_1 = " + to_string(distance) + " > delta = " + to_string(*ctx.delta));
  else
    try {
      r = simulation_outputs(ctx, x, z);
    } catch (const Decided& d) {
      r = d.result;
    }
  r.constructed = true;
  r.distance = distance;
  return r;
}

WitnessResult norm_inequality(const Model& m, const Rational& L, const Tokens& x, const Tokens& z, Semantics s,
                              unsigned bits) try {
  auto ax = class_attention(m, x, s, bits), az = class_attention(m, z, s, bits);
  Rational distance = 0, most = 0;  // a lower and an upper bound of max_h ‖ω_h(x) − ω_h(z)‖₁
  for (std::size_t h = 0; h < ax.size(); ++h) {
    Number sum(0);
    for (std::size_t k = 0; k < ax[h].size(); ++k) sum += abs(ax[h][k] - az[h][k]);
    distance = std::max(distance, lower_of(sum));
    most = std::max(most, upper_of(sum));
  }
  const Rational bound = L * distance;
  const Bracket d = output_distance(m, x, z, s, s, bits);
  if (d.hi <= bound) return ok();
  const bool certain = d.lo > L * most;  // above every value the bound can take
  const std::string why = "|f(x) - f(z)| " + std::string(certain ? "> " : "not certainly <= ") +
                          "L * max_h |w_h(x) - w_h(z)|_1 = " + to_string(certain ? L * most : bound) +
                          " (the kernel's L = " + to_string(L) + ")";
  return certain ? violation(why) : reject(why);
} catch (const Undecided& e) {
  return unchecked(std::string("undecided: ") + e.what());
}

std::uint64_t residue_count(std::uint64_t B, std::size_t r, std::size_t period) {
  if (r == 0) return B / period;
  return B / period + (r <= B % period ? 1 : 0);
}

std::variant<Statistic, std::string> read_statistic(const json& j, const Model& m) {
  if (!j.is_object()) return std::string("expected a statistic object, got ") + show(j);
  for (const char* key : {"length", "window", "counts"})
    if (!j.contains(key)) return std::string(key) + ": missing";
  std::string why;
  Statistic s;
  auto T = read_count(j["length"], kMaxStatisticLength, why);
  if (!T || *T == 0) return "length: " + (why.empty() ? std::string("must be at least 1") : why);
  s.length = *T;
  const std::size_t S = m.alphabet_size(), D = m.period, tau = m.locality;
  const std::uint64_t window = std::min<std::uint64_t>(s.length, tau + 1);
  if (!j["window"].is_array() || j["window"].size() != window)
    return "window: expected " + std::to_string(window) + " tokens, got " + show(j["window"]);
  for (const auto& t : j["window"]) {
    auto v = read_count(t, S - 1, why);
    if (!v) return "window: " + why;
    s.window.push_back(static_cast<int>(*v));
  }
  if (!j["counts"].is_array() || j["counts"].size() != S * D)
    return "counts: expected " + std::to_string(S * D) + " entries (S·Δ), got " + show(j["counts"]);
  for (const auto& c : j["counts"]) {
    auto v = read_count(c, s.length, why);
    if (!v) return "counts: " + why;
    s.counts.push_back(*v);
  }
  const std::uint64_t B = s.length > tau + 1 ? s.length - tau - 1 : 0;
  for (std::size_t r = 0; r < D; ++r) {
    std::uint64_t sum = 0;  // each count <= T <= 2^62: checked after each addition, the sum cannot wrap
    for (std::size_t t = 0; t < S && sum <= B; ++t) sum += s.counts[t * D + r];
    if (sum != residue_count(B, r, D))
      return "counts: residue " + std::to_string(r) + " holds " + std::to_string(sum) +
             " positions, the length gives " + std::to_string(residue_count(B, r, D));
  }
  return s;
}

Tokens expand(const Statistic& sigma, const Model& m) {
  const std::size_t D = m.period;
  const std::uint64_t B = sigma.length > m.locality + 1 ? sigma.length - m.locality - 1 : 0;
  std::vector<std::size_t> token(D, 0);           // the token residue r is filling
  std::vector<std::uint64_t> used(D, 0);          // positions of that token placed so far
  Tokens x;
  x.reserve(sigma.length);
  for (std::uint64_t j = 1; j <= B; ++j) {
    const std::size_t r = j % D;
    while (used[r] == sigma.counts[token[r] * D + r]) ++token[r], used[r] = 0;  // counts sum to m_r(B): never past S
    x.push_back(static_cast<int>(token[r]));
    ++used[r];
  }
  x.insert(x.end(), sigma.window.begin(), sigma.window.end());
  return x;
}

WitnessResult check_witness(const json& w, const WitnessContext& ctx) {
  try {
    if (!w.is_object()) return reject("expected a witness object, got " + show(w));
    if (!w.contains("kind") || !w["kind"].is_string()) return reject("kind: missing or not a string");
    const std::string kind = w["kind"].get<std::string>();
    const bool violates = w.contains("expect") && w["expect"] == "violates";
    if (w.contains("expect") && w["expect"] != "holds" && w["expect"] != "differs" && !violates)
      return reject("expect: " + show(w["expect"]) + " is not an expectation the kernel knows");
    if (violates && kind != "simulation" && kind != "norm_pair")
      return reject("expect: \"violates\" is recorded by simulation and norm_pair witnesses only");
    static const std::map<std::string, WitnessResult (*)(const json&, const WitnessContext&)> kinds = {
        {"finite_differs", check_finite_differs}, {"string_differs", check_string_differs},
        {"simulation", check_simulation}, {"norm_pair", check_norm_pair}, {"pair_distance", check_pair_distance}};
    const auto check = kinds.find(kind);
    if (check == kinds.end()) return reject("kind: \"" + kind + "\" is not a witness kind the kernel knows");
    return violates ? expect_violation(check->second(w, ctx)) : check->second(w, ctx);
  } catch (const Decided& d) {
    return d.result;
  } catch (const Undecided& e) {
    return unchecked(std::string("undecided: ") + e.what());
  } catch (const std::exception& e) {
    return reject(std::string("evaluation failed: ") + e.what());
  }
}

}  // namespace lgc::kernel
