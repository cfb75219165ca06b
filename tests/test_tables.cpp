// Tables: the renderers (CSV quoting, LaTeX escaping and scientific
// notation, alignment), the growth verdict of the scaling table, and the
// tables' content against what they summarise.
#include "tables.hpp"

#include "support.hpp"

using lgc::Integer;

namespace {

lgc::Table sample() {
  lgc::Table t;
  t.name = "sample";
  t.caption = "A 50% table_with & specials";
  t.columns = {"family", "N"};
  t.rows = {{"a, \"quoted\"", "1.2346e+45 (46 digits)"}, {"b_c", "17"}};
  t.notes = {"x^2 ~ y"};
  return t;
}

}  // namespace

TEST_CASE("CSV quotes fields with commas and quotes", "[tables]") {
  CHECK(lgc::render_csv(sample()) == "family,N\n\"a, \"\"quoted\"\"\",1.2346e+45 (46 digits)\nb_c,17\n");
}

TEST_CASE("LaTeX uses booktabs, escapes specials and sets scientific notation", "[tables]") {
  const std::string tex = lgc::render_tex(sample());
  CHECK(tex.find("\\toprule") != std::string::npos);
  CHECK(tex.find("\\midrule") != std::string::npos);
  CHECK(tex.find("\\bottomrule") != std::string::npos);
  CHECK(tex.find("\\caption{A 50\\% table\\_with \\& specials}") != std::string::npos);
  CHECK(tex.find("$1.2346\\times10^{45}$ (46 digits)") != std::string::npos);
  CHECK(tex.find("b\\_c & 17 \\\\") != std::string::npos);
  CHECK(tex.find("x\\textasciicircum{}2 \\textasciitilde{} y") != std::string::npos);
  CHECK(tex.find("\\begin{tabular}{lr}") != std::string::npos);  // text left, numbers right
  CHECK(lgc::render_markdown(sample()).find("|---|---:|") != std::string::npos);
  CHECK_THROWS_AS(lgc::render(sample(), "xls"), std::invalid_argument);
}

TEST_CASE("A growth claim is PROVED only when every step increases", "[tables]") {
  CHECK(lgc::strictly_increasing("k", {"1", "2", "3"}, {Integer(1), Integer(5), Integer(9)}).verdict == lgc::Verdict::Proved);
  const lgc::GrowthVerdict flat = lgc::strictly_increasing("k", {"1", "2", "3"}, {Integer(1), Integer(5), Integer(5)});
  CHECK(flat.verdict == lgc::Verdict::Refuted);
  CHECK(flat.detail == "k = 3 gives 5 <= 5 at k = 2");
}

TEST_CASE("The threshold table's measured thresholds never exceed the bound", "[tables]") {
  const lgc::Table t = lgc::table_threshold();
  REQUIRE(!t.exact.empty());
  for (const auto& row : t.exact) {
    INFO(row.dump());
    CHECK(row["measured"].get<std::uint64_t>() <= lgc::parse_integer(row["threshold"].get<std::string>()));
    CHECK(row["undecided"] == 0);
  }
}
