// Sufficient statistics: enumeration, round trips, and statistic evaluation
// equal to string evaluation on every string up to length 10.
#include "lgcheck/enumerate/strings.hpp"
#include "lgcheck/semantics/one_layer.hpp"
#include "lgcheck/tasks/paper_tasks.hpp"

#include "support.hpp"

#include <set>

using lgc::Rational;
using lgc::Statistic;

TEST_CASE("Statistic enumeration visits each statistic of a length once", "[statistic]") {
  for (lgc::Shape shape : {lgc::Shape{2, 1, 0}, lgc::Shape{2, 3, 1}, lgc::Shape{3, 2, 0}, lgc::Shape{2, 2, 2}}) {
    for (std::uint64_t T = 1; T <= 7; ++T) {
      INFO("S=" << shape.alphabet_size << " D=" << shape.period << " tau=" << shape.locality << " T=" << T);
      std::set<std::pair<std::vector<std::uint64_t>, lgc::Tokens>> from_strings, from_enumeration;
      lgc::for_each_string(shape.alphabet_size, T, [&](const lgc::Tokens& x) {
        Statistic s = lgc::statistic_of(shape, x);
        from_strings.insert({s.counts, s.window});
        return true;
      });
      std::uint64_t visited = lgc::for_each_statistic(shape, T, [&](const Statistic& s) {
        lgc::validate_statistic(shape, s);
        from_enumeration.insert({s.counts, s.window});
        CHECK(lgc::statistic_of(shape, lgc::string_of(shape, s)) == s);
        return true;
      });
      CHECK(visited == from_enumeration.size());
      CHECK(visited == lgc::statistic_count(shape, T));
      CHECK(from_enumeration == from_strings);
    }
  }
}

TEST_CASE("Statistic evaluation equals string evaluation on every string up to length 10", "[statistic][forward]") {
  std::mt19937_64 rng(lgc::test::test_seed() + 3);
  INFO("seed " << lgc::test::test_seed() + 3);
  struct Config { std::size_t S, D, tau, heads; bool mlp; std::size_t max_length; };
  for (Config cfg : {Config{2, 1, 0, 1, false, 10}, Config{2, 2, 1, 2, true, 10}, Config{2, 3, 2, 1, true, 10},
                     Config{3, 2, 1, 2, false, 7}}) {
    lgc::Model m = lgc::test::random_one_layer_model(rng, cfg.S, cfg.D, cfg.tau, cfg.heads, cfg.mlp);
    lgc::OneLayerEvaluator eval(m);
    INFO("S=" << cfg.S << " D=" << cfg.D << " tau=" << cfg.tau << " heads=" << cfg.heads);
    std::size_t mismatches = 0, checked = 0;
    lgc::for_each_string(cfg.S, cfg.max_length, [&](const lgc::Tokens& x) {
      auto all = lgc::evaluate_all(m, x, lgc::ForwardOptions{lgc::Semantics::hardmax()});
      for (std::size_t i = 1; i <= x.size(); ++i) {
        lgc::Tokens prefix(x.begin(), x.begin() + static_cast<long>(i));
        auto via_statistic = eval.evaluate(lgc::statistic_of(eval.shape(), prefix));
        for (std::size_t k = 0; k < via_statistic.size(); ++k)
          if (!(via_statistic[k] == all[i - 1][k])) ++mismatches;
        ++checked;
      }
      return mismatches == 0;
    });
    CHECK(mismatches == 0);
    CHECK(checked > 1000);
  }
}

TEST_CASE("Random statistics are valid and reach rare classes", "[statistic]") {
  std::mt19937_64 rng(lgc::test::test_seed() + 4);
  lgc::Shape shape{2, 3, 1};
  bool saw_rare = false;
  for (int rep = 0; rep < 200; ++rep) {
    Statistic s = lgc::random_statistic(shape, 1000000, rng);
    lgc::validate_statistic(shape, s);
    for (auto c : s.counts) saw_rare = saw_rare || (c >= 1 && c <= 3);
  }
  CHECK(saw_rare);
}

TEST_CASE("finite:p evaluation from statistics equals the string evaluation", "[statistic][finite]") {
  std::mt19937_64 rng(lgc::test::test_seed() + 5);
  INFO("seed " << lgc::test::test_seed() + 5);
  for (int rep = 0; rep < 3; ++rep) {
    lgc::Model m = lgc::test::random_one_layer_model(rng, 2, 2, 1, 2, rep % 2 == 0);
    lgc::OneLayerEvaluator eval(m);
    for (unsigned p : {1u, 3u}) {
      std::size_t mismatches = 0;
      lgc::for_each_string(2, 9, [&](const lgc::Tokens& x) {
        auto direct = lgc::evaluate(m, x, lgc::ForwardOptions{lgc::Semantics::finite(p)});
        auto via = eval.evaluate_finite(lgc::statistic_of(eval.shape(), x), p);
        // Exact results must be equal; enclosures must overlap (a certified
        // difference is a mismatch).
        for (std::size_t k = 0; k < direct.size(); ++k) {
          CHECK(direct[k].is_exact() == via[k].is_exact());
          std::optional<int> order = lgc::compare(direct[k], via[k]);
          if (order && *order != 0) ++mismatches;
        }
        return mismatches == 0;
      });
      INFO("rep " << rep << " p " << p);
      CHECK(mismatches == 0);
    }
  }
}

TEST_CASE("finite-weights:p evaluation from statistics equals the string evaluation", "[statistic][finite]") {
  std::mt19937_64 rng(lgc::test::test_seed() + 6);
  INFO("seed " << lgc::test::test_seed() + 6);
  std::size_t rounded_top = 0;  // strings where a head's every weight rounds (p = 1 and uniform attention)
  for (int rep = 0; rep < 3; ++rep) {
    lgc::Model m = lgc::test::random_one_layer_model(rng, 2, 2, 1, 2, rep % 2 == 0);
    if (rep == 2) {  // uniform attention in head 0: at p = 1 every weight 1/T <= 1/2 rounds (T >= 2)
      m.layers[0].heads[0].qk = lgc::QMatrix(m.width, m.width);
      m.layers[0].heads[0].phi.assign(m.layers[0].heads[0].phi.size(), Rational(0));
    }
    lgc::OneLayerEvaluator eval(m);
    for (unsigned p : {1u, 3u}) {
      const lgc::Semantics sem = lgc::Semantics::finite_weights(p);
      std::size_t mismatches = 0;
      lgc::for_each_string(2, 9, [&](const lgc::Tokens& x) {
        auto direct = lgc::evaluate(m, x, lgc::ForwardOptions{sem});
        auto via = eval.evaluate_rounded(lgc::statistic_of(eval.shape(), x), sem);
        auto hard = lgc::evaluate(m, x, lgc::ForwardOptions{lgc::Semantics::hardmax()});
        for (std::size_t k = 0; k < direct.size(); ++k) {
          CHECK(direct[k].is_exact() == via[k].is_exact());
          std::optional<int> order = lgc::compare(direct[k], via[k]);
          if (order && *order != 0) ++mismatches;
        }
        if (rep == 2 && p == 1 && x.size() >= 2 && !(direct[0] == hard[0])) ++rounded_top;
        return mismatches == 0;
      });
      INFO("rep " << rep << " p " << p);
      CHECK(mismatches == 0);
    }
  }
  CHECK(rounded_top > 0);
}
