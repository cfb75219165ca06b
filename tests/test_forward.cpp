// Forward passes: hand-computed exact outputs, finite:p against hardmax
// around the threshold, softmax enclosures against higher precision.
#include "lgcheck/enumerate/strings.hpp"
#include "lgcheck/semantics/finite_precision.hpp"
#include "lgcheck/semantics/forward.hpp"
#include "lgcheck/tasks/paper_tasks.hpp"

#include "support.hpp"

using lgc::ForwardOptions;
using lgc::Number;
using lgc::Rational;
using lgc::Semantics;

namespace {

lgc::Model modp(std::size_t p) { return lgc::test::bundled("paper/modp/modp_p" + std::to_string(p) + "_hardmax.json").model(); }

Number eval(const lgc::Model& m, const std::string& input, const Semantics& sem, unsigned bits = 128) {
  return lgc::evaluate(m, lgc::parse_input(m, input), ForwardOptions{sem, bits}).at(0);
}

Rational exact_eval(const lgc::Model& m, const std::string& input, const Semantics& sem) {
  Number y = eval(m, input, sem);
  REQUIRE(y.is_exact());
  return y.exact();
}

}  // namespace

TEST_CASE("ModPTask under hardmax: hand-computed exact outputs", "[forward][hardmax]") {
  lgc::Model m = modp(3);
  // Positions 3 and 6 are the ones = 0 (mod 3).
  CHECK(exact_eval(m, "1101101", Semantics::hardmax()) == 0);   // x3 = x6 = 0
  CHECK(exact_eval(m, "0101111", Semantics::hardmax()) == Rational(1, 2));  // x3 = 0, x6 = 1
  CHECK(exact_eval(m, "0111111", Semantics::hardmax()) == 1);   // x3 = x6 = 1
  CHECK(exact_eval(m, "10", Semantics::hardmax()) == Rational(1, 2));  // no position = 0 yet: uniform
  CHECK(exact_eval(m, "011", Semantics::hardmax()) == 1);
  CHECK(exact_eval(modp(2), "0110", Semantics::hardmax()) == Rational(1, 2));  // x2 = 1, x4 = 0
}

TEST_CASE("All-position outputs equal the last-position outputs of the prefixes", "[forward]") {
  lgc::Model m = modp(3);
  auto x = lgc::parse_input(m, "0111011010");
  for (auto sem : {Semantics::hardmax(), Semantics::finite(3)}) {
    auto all = lgc::evaluate_all(m, x, ForwardOptions{sem});
    for (std::size_t i = 1; i <= x.size(); ++i) {
      auto prefix = lgc::Tokens(x.begin(), x.begin() + static_cast<long>(i));
      CHECK(all[i - 1][0] == lgc::evaluate(m, prefix, ForwardOptions{sem})[0]);
    }
  }
}

TEST_CASE("finite:p by hand: surviving weights i^{-delta} and exact rounding", "[forward][finite]") {
  lgc::Model m = modp(3);
  // i = 3, p = 3: gap 1, 3^1 < 2^3 so positions 1, 2 survive with weight 1/3:
  // (0·1/3 + 1·1/3 + 1·1) / (1/3 + 1/3 + 1) = 4/5.
  CHECK(exact_eval(m, "011", Semantics::finite(3)) == Rational(4, 5));
  // i = 8 = 2^3: weight 1/8 = 2^{-3} rounds to 0 (<= 2^{-p}); finite:3 = hardmax.
  CHECK(exact_eval(m, "01111111", Semantics::finite(3)) == exact_eval(m, "01111111", Semantics::hardmax()));
  // i = 7 < 8: it survives and the two differ.
  CHECK(exact_eval(m, "0111111", Semantics::finite(3)) != exact_eval(m, "0111111", Semantics::hardmax()));
}

TEST_CASE("finite:p equals hardmax above the threshold and differs below it", "[forward][finite]") {
  lgc::Model m = modp(3);
  const unsigned p = 4;
  lgc::Integer threshold = lgc::hardmax_threshold(p, Rational(1));
  REQUIRE(threshold == 16);
  std::mt19937_64 rng(lgc::test::test_seed());
  INFO("seed " << lgc::test::test_seed());
  int differences_below = 0;
  for (int rep = 0; rep < 30; ++rep) {
    auto x = lgc::random_string(2, 24, rng);
    x[2] = 1;  // position 3 (attended) holds a 1 and position 1 a 0: below the
    x[0] = 0;  // threshold the surviving weights pull the output away
    INFO("x = " << lgc::format_input(m, x));
    auto hard = lgc::evaluate_all(m, x, ForwardOptions{Semantics::hardmax()});
    auto fin = lgc::evaluate_all(m, x, ForwardOptions{Semantics::finite(p)});
    for (std::size_t i = 16; i <= x.size(); ++i) CHECK(hard[i - 1][0] == fin[i - 1][0]);
    for (std::size_t i = 3; i < 16; ++i) differences_below += hard[i - 1][0] == fin[i - 1][0] ? 0 : 1;
  }
  CHECK(differences_below > 0);
}

TEST_CASE("finite:p with a non-integer gap: certified survivors", "[forward][finite]") {
  lgc::Model m = modp(3);
  m.layers[0].heads[0].qk(2, 3) = Rational(1, 2);  // gap 1/2: weights i^{-1/2}
  Number y = eval(m, "011", Semantics::finite(8));
  REQUIRE_FALSE(y.is_exact());
  // (1/sqrt3 + 1) / (2/sqrt3 + 1) = (1 + sqrt3) / (2 + sqrt3)
  lgc::Interval s3 = sqrt(lgc::Interval(Rational(3), 256));
  lgc::Interval expected = (lgc::Interval(Rational(1), 256) + s3) / (lgc::Interval(Rational(2), 256) + s3);
  CHECK(y.enclosure().contains(expected));
  // 3^{1/2} >= 2^p never holds for p >= 1 at i = 3; at p = 1, i = 4 it does (4^{1/2} = 2).
  CHECK(lgc::rounds_to_zero(4, Rational(1, 2), 1));
  CHECK_FALSE(lgc::rounds_to_zero(3, Rational(1, 2), 1));
}

TEST_CASE("finite-weights:p by hand: normalised weights round, top keys too", "[forward][finite]") {
  // One head: logit 2 on every 1-token key (margin 2), value "the key is a 1"; finite-weights:6.
  const lgc::Model m = lgc::test::bundled("section4/attend_ones_gamma2_finite_weights6.json").model();
  const Semantics w6 = Semantics::finite_weights(6);
  // T = 7, one 1-key (u = 1) and six 0-keys (u = 7^-2): Σu = 55/49, a 0-key's weight 1/55 > 2^-6 survives:
  // the output is 1/(55/49) = 49/55 (hardmax: 1; finite:6 rounds 1/49 <= 1/64? no, it keeps it too).
  CHECK(exact_eval(m, "1000000", w6) == Rational(49, 55));
  CHECK(exact_eval(m, "1000000", Semantics::hardmax()) == 1);
  // T = 8 = ceil(2^(6/2)): 0-key weights 8^-2/Σu < 2^-6 round, the 1-key survives: hardmax.
  CHECK(exact_eval(m, "10000000", w6) == 1);
  // 63 ones: every weight 1/63 > 2^-6 survives (hardmax); 64 ones: every weight 1/64 rounds, the head adds 0.
  CHECK(exact_eval(m, std::string(63, '1'), w6) == 1);
  CHECK(exact_eval(m, std::string(64, '1'), w6) == 0);
  CHECK(exact_eval(m, std::string(64, '1'), Semantics::finite(6)) == 1);  // finite:6 rounds no top key
  // The decision itself: 2^p·term <= total, equality rounding; enclosures decided or Undecided.
  CHECK(lgc::weight_rounds_to_zero(Number(Rational(1, 4)), Number(Rational(1, 2)), 1, 128));
  CHECK_FALSE(lgc::weight_rounds_to_zero(Number(Rational(1, 4)), Number(Rational(49, 100)), 1, 128));
  const Number root = Number(sqrt(lgc::Interval(Rational(2), 128)));
  CHECK_FALSE(lgc::weight_rounds_to_zero(root, Number(Rational(2)), 1, 128));  // 2√2 > 2
  CHECK_THROWS_AS(lgc::weight_rounds_to_zero(root, root * Number(Rational(2)), 1, 128), lgc::Undecided);
  // A rational term behind a fractional gap is exact: 4^{-1/2} = 1/2, 27^{-2/3} = 1/9; 2^{-1/2} is not.
  CHECK(lgc::unrounded_term(4, Rational(1, 2), 128).is_exact());
  CHECK(lgc::unrounded_term(4, Rational(1, 2), 128).exact() == Rational(1, 2));
  CHECK(lgc::unrounded_term(27, Rational(2, 3), 128).exact() == Rational(1, 9));
  CHECK_FALSE(lgc::unrounded_term(2, Rational(1, 2), 128).is_exact());
  // So the tie 2^2·(1/2) <= 2 is decided exactly (it rounds) rather than left undecided.
  CHECK(lgc::weight_rounds_to_zero(lgc::unrounded_term(4, Rational(1, 2), 128), Number(Rational(2)), 2, 128));
}

TEST_CASE("hardmax_threshold is the least i with i^gamma >= 2^p", "[forward][threshold]") {
  CHECK(lgc::hardmax_threshold(8, Rational(1)) == 256);
  CHECK(lgc::hardmax_threshold(8, Rational(2)) == 16);
  CHECK(lgc::hardmax_threshold(3, Rational(2)) == 3);   // 2^{1.5} = 2.83
  CHECK(lgc::hardmax_threshold(8, Rational(1, 2)) == 65536);
  CHECK(lgc::hardmax_threshold(1, Rational(10)) == 2);
  CHECK(lgc::hardmax_threshold(10, Rational(3)) == 11);  // 2^{10/3} = 10.08
  for (unsigned p : {1u, 2u, 5u, 9u})
    for (Rational g : {Rational(1, 3), Rational(2, 3), Rational(1), Rational(7, 4)}) {
      lgc::Integer t = lgc::hardmax_threshold(p, g);
      INFO("p = " << p << ", gamma = " << lgc::to_string(g) << ", t = " << t);
      CHECK(lgc::power_reaches(t, g, p));
      if (t > 1) CHECK_FALSE(lgc::power_reaches(t - 1, g, p));
    }
}

TEST_CASE("SimpleTask: the ReLU MLP interpolates sin at its knots exactly", "[forward][mlp]") {
  lgc::Model relu = lgc::simple_task(Rational(2), lgc::SimpleReadout::ReluMlp);
  lgc::Model sine = lgc::simple_task(Rational(2), lgc::SimpleReadout::Sin);
  // q = 3/8 is the knot 3/8 of K = 8 knots.
  Rational at_knot = exact_eval(relu, "01001010", Semantics::hardmax());
  Number s = eval(sine, "01001010", Semantics::hardmax());
  CHECK_FALSE(s.is_exact());
  CHECK(s.enclosure().lower() - at_knot >= 0);
  CHECK(s.enclosure().upper() - at_knot < Rational(1, 1000000));
  // Between knots the interpolation is within omega^2 h^2 / 8 + 1e-6 of sin.
  Number mid = eval(sine, "0101000000", Semantics::hardmax());  // q = 1/5
  Rational approx = exact_eval(relu, "0101000000", Semantics::hardmax());
  CHECK(abs(mid.enclosure().lower() - approx) <= Rational(4, 8 * 64) + Rational(1, 1000000));
}

TEST_CASE("Softmax enclosures contain a higher-precision recomputation and shrink", "[forward][softmax]") {
  lgc::Model m = lgc::test::bundled("paper/induction/induction_head_k1.json").model();
  auto x = lgc::parse_input(m, "abbababbaab");
  lgc::Output y64 = lgc::evaluate(m, x, ForwardOptions{Semantics::softmax(), 64});
  lgc::Output y256 = lgc::evaluate(m, x, ForwardOptions{Semantics::softmax(), 256});
  for (std::size_t k = 0; k < 2; ++k) {
    REQUIRE_FALSE(y64[k].is_exact());
    CHECK(y64[k].enclosure().contains(y256[k].enclosure()));
    CHECK(y256[k].enclosure().width() < y64[k].enclosure().width());
  }
  // The two outputs are weights of a distribution: they sum to 1.
  CHECK((y256[0] + y256[1]).enclosure().contains(Rational(1)));
}

TEST_CASE("Softmax on one token is exact, on equal logits it is uniform", "[forward][softmax]") {
  lgc::Model m = lgc::test::bundled("paper/induction/induction_head_k1.json").model();
  lgc::Output y = lgc::evaluate(m, lgc::parse_input(m, "a"), ForwardOptions{Semantics::softmax()});
  CHECK(y[0].is_exact());
  auto w = lgc::softmax_weights({Number(1), Number(1), Number(1)}, 64);
  CHECK(w[0].exact() == Rational(1, 3));
  auto v = lgc::softmax_weights({Number(0), Number(Rational(1))}, 128);
  // e / (1 + e) for the second key.
  lgc::Interval e = exp(lgc::Interval(Rational(1), 256));
  CHECK(v[1].enclosure().contains(e / (lgc::Interval(Rational(1), 256) + e)));
}

TEST_CASE("The induction head predicts the successor of the last token", "[forward][softmax]") {
  lgc::Model m = lgc::induction_head(Rational(4), Rational(12));
  // After each b came an a: the prediction for the final b is mostly a.
  // (Position 1 attends to itself only, so it "copies" its own token: start
  // with a, whose copy does not match the query b.)
  lgc::Output y = lgc::evaluate(m, lgc::parse_input(m, "ababababab"), ForwardOptions{Semantics::softmax()});
  CHECK(y[0].enclosure().lower() > Rational(9, 10));
}

TEST_CASE("Evaluation refuses out-of-range query positions", "[forward]") {
  lgc::Model m = modp(3);
  CHECK_THROWS_AS(lgc::evaluate_at(m, {0, 1}, ForwardOptions{}, {3}), std::invalid_argument);
  CHECK_THROWS_AS(lgc::evaluate_at(m, {0, 1}, ForwardOptions{}, {2, 1}), std::invalid_argument);
}

TEST_CASE("readout_distance: the exact 0 for one activation of equal arguments, the enclosure otherwise",
          "[forward][distance]") {
  lgc::Model f = lgc::simple_task(Rational(2), lgc::SimpleReadout::Sin);  // one output, sin(2·(U y + u))
  f.readout.weights(0, 0) = 1;
  lgc::Model g = f;
  g.readout.weights(0, 0) = 2;  // g's argument at y is f's at y' = (y_0/2, y_1, ...)
  const std::size_t d = f.width;
  lgc::Vector<Number> y(d, Number(Rational(1, 3))), half = y;
  half[0] = Number(Rational(1, 6));
  const Number zero = lgc::readout_distance(f, y, g, half, 128);
  REQUIRE(zero.is_exact());
  CHECK(zero.exact() == 0);
  // The outputs subtracted show only [0, w]: the rule is what makes the 0 exact.
  const Number subtracted = lgc::max_abs_difference(lgc::apply_readout(f, y, 128), lgc::apply_readout(g, half, 128));
  CHECK_FALSE(subtracted.is_exact());
  // Other arguments: the enclosure of the outputs' difference (here certainly above 0).
  const Number apart = lgc::readout_distance(f, y, g, y, 128);
  CHECK_FALSE(apart.is_exact());
  CHECK(lgc::lower_of(apart) > 0);
  CHECK(lgc::upper_of(apart) == lgc::upper_of(lgc::max_abs_difference(lgc::apply_readout(f, y, 128),
                                                                       lgc::apply_readout(g, y, 128))));
  // Equal arguments under two frequencies are not equal outputs.
  lgc::Model faster = g;
  faster.readout.sin_omega = Rational(3);
  const Number other = lgc::readout_distance(f, y, faster, half, 128);
  CHECK_FALSE(other.is_exact());
  CHECK(lgc::lower_of(other) > 0);
  // Identity readouts: exact either way, and the same as the outputs subtracted.
  lgc::Model fi = f, gi = g;
  fi.readout.sin_omega.reset();
  gi.readout.sin_omega.reset();
  CHECK(lgc::readout_distance(fi, y, gi, half, 128) == Number(0));
  CHECK(lgc::readout_distance(fi, y, gi, y, 128) ==
        lgc::max_abs_difference(lgc::apply_readout(fi, y, 128), lgc::apply_readout(gi, y, 128)));
}

TEST_CASE("readout_distance: a coordinate of equal arguments gives the exact 0, whatever the others",
          "[forward][distance]") {
  // Two outputs, sin(2·): coordinate 0 reads y_0 (g: y_0 + 10^-5), coordinate 1 reads y_1 (g: 2·y_1).
  lgc::Model f = lgc::simple_task(Rational(2), lgc::SimpleReadout::Sin);
  const std::size_t d = f.width;
  f.readout.weights = lgc::QMatrix(2, d);
  f.readout.weights(0, 0) = 1;
  f.readout.weights(1, 1) = 1;
  f.readout.bias = lgc::QVector(2, Rational(0));
  lgc::Model g = f;
  g.readout.weights(1, 1) = 2;
  g.readout.bias[0] = Rational(1, 100000);
  lgc::Vector<Number> y(d, Number(Rational(1, 3))), z = y;
  y[0] = z[0] = Number(Rational(1, 200));
  z[1] = Number(Rational(1, 6));  // f's and g's arguments equal at coordinate 1 (1/3), 10^-5 apart at coordinate 0
  // At 8 bits sin(2/3)'s enclosure is about 2^-9 wide, sin(1/100)'s about 2^-14: subtracted at the equal coordinate
  // it reaches further than the difference at the other, so without the rule coordinate 1's [0, w] would be the
  // maximum.
  const Number ruled = lgc::readout_distance(f, y, g, z, 8);
  const Number subtracted = lgc::max_abs_difference(lgc::apply_readout(f, y, 8), lgc::apply_readout(g, z, 8));
  const auto coordinate0 = [&](const lgc::Vector<Number>& at, unsigned bits) {
    lgc::Model f0 = f, g0 = g;
    for (lgc::Model* m : {&f0, &g0}) {
      m->readout.weights = lgc::QMatrix(1, d);
      m->readout.bias = lgc::QVector(1, m->readout.bias[0]);
    }
    f0.readout.weights(0, 0) = 1, g0.readout.weights(0, 0) = 1;
    return lgc::max_abs_difference(lgc::apply_readout(f0, y, bits), lgc::apply_readout(g0, at, bits));
  };
  const Number alone = coordinate0(z, 8);
  CHECK(lgc::lower_of(ruled) == lgc::lower_of(alone));
  CHECK(lgc::upper_of(ruled) == lgc::upper_of(alone));
  CHECK(lgc::upper_of(subtracted) > lgc::upper_of(ruled));
  // The same Number wherever the equal coordinate's common value lies (what one-valued groups rely on).
  lgc::Vector<Number> y2 = y, z2 = z;
  y2[1] = Number(Rational(2, 7));
  z2[1] = Number(Rational(1, 7));
  for (const unsigned bits : {8u, 128u}) {
    const Number a = lgc::readout_distance(f, y, g, z, bits), b = lgc::readout_distance(f, y2, g, z2, bits);
    CHECK(lgc::lower_of(a) == lgc::lower_of(b));
    CHECK(lgc::upper_of(a) == lgc::upper_of(b));
  }
  CHECK(lgc::lower_of(lgc::readout_distance(f, y2, g, z2, 128)) > 0);  // coordinate 0's 10^-5 is seen at 128 bits
}
