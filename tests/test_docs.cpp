// The documents of the repository: every relative link of README.md and
// docs/*.md resolves inside the repository, and docs/cli.md documents every
// JSON key the command line prints (and prints every key it documents).
#include "support.hpp"

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using lgc::test::run_lgcheck;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

std::string read_text(const fs::path& file) {
  std::ifstream in(file);
  REQUIRE(in.good());
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

/// The lines of a Markdown text outside fenced code blocks.
std::vector<std::string> prose_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  bool fenced = false;
  while (std::getline(in, line)) {
    const auto first = line.find_first_not_of(' ');
    if (first != std::string::npos && line.compare(first, 3, "```") == 0) {
      fenced = !fenced;
      continue;
    }
    if (!fenced) lines.push_back(line);
  }
  return lines;
}

/// A line with its inline code spans removed (a link inside `...` is code).
std::string without_code_spans(const std::string& line) {
  std::string out;
  bool code = false;
  for (char c : line) {
    if (c == '`') code = !code;
    else if (!code) out += c;
  }
  return out;
}

/// The anchor GitHub gives a heading: lower case, punctuation dropped,
/// spaces to hyphens; a repeated heading gets -1, -2, ... Non-ASCII bytes are
/// kept (an approximation: GitHub drops non-ASCII punctuation such as an em
/// dash; no link of the repository targets such a heading).
std::set<std::string> heading_anchors(const fs::path& file) {
  std::set<std::string> anchors;
  std::map<std::string, int> seen;
  for (const std::string& line : prose_lines(read_text(file))) {
    std::size_t level = 0;
    while (level < line.size() && line[level] == '#') ++level;
    if (level == 0 || level > 6 || level >= line.size() || line[level] != ' ') continue;
    std::string slug;
    for (unsigned char c : line.substr(level + 1)) {
      if (std::isalnum(c)) slug += static_cast<char>(std::tolower(c));
      else if (c == ' ') slug += '-';
      else if (c == '-' || c == '_' || c >= 0x80) slug += static_cast<char>(c);
    }
    const int n = seen[slug]++;
    anchors.insert(n == 0 ? slug : slug + "-" + std::to_string(n));
  }
  return anchors;
}

std::vector<fs::path> markdown_documents() {
  const fs::path root = lgc::test::source_dir();
  std::vector<fs::path> files{root / "README.md"};
  for (const auto& entry : fs::directory_iterator(root / "docs"))
    if (entry.is_regular_file() && entry.path().extension() == ".md") files.push_back(entry.path());
  std::sort(files.begin() + 1, files.end());
  return files;
}

struct Link {
  fs::path file;
  std::string target;
};

/// Every inline link and image `[text](target)` outside code.
std::vector<Link> markdown_links(const fs::path& file) {
  static const std::regex link(R"(\]\(\s*<?([^)\s>]+)>?(\s+"[^"]*")?\s*\))");
  std::vector<Link> links;
  for (const std::string& line : prose_lines(read_text(file))) {
    const std::string text = without_code_spans(line);
    for (auto it = std::sregex_iterator(text.begin(), text.end(), link); it != std::sregex_iterator(); ++it)
      links.push_back({file, (*it)[1].str()});
  }
  return links;
}

bool is_external(const std::string& target) {
  for (const char* scheme : {"http://", "https://", "mailto:"})
    if (target.rfind(scheme, 0) == 0) return true;
  return false;
}

/// Every object key of a JSON value, recursively; the values under a key in
/// `data_keys` are data (their keys are names such as claim ids), not keys.
void collect_keys(const json& j, std::set<std::string>& keys, const std::set<std::string>& data_keys = {}) {
  if (j.is_object()) {
    for (const auto& [key, value] : j.items()) {
      keys.insert(key);
      if (!data_keys.count(key)) collect_keys(value, keys, data_keys);
    }
  } else if (j.is_array()) {
    for (const auto& value : j) collect_keys(value, keys, data_keys);
  }
}

void collect_top_level_keys(const json& j, std::set<std::string>& keys) {
  REQUIRE(j.is_object());
  for (const auto& [key, unused] : j.items()) keys.insert(key);
}

/// Every `code span` of docs/cli.md.
std::set<std::string> code_spans(const std::string& text) {
  std::set<std::string> spans;
  static const std::regex span("`([^`\n]+)`");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), span); it != std::sregex_iterator(); ++it)
    spans.insert((*it)[1].str());
  return spans;
}

/// The keys of docs/cli.md's key tables: the tables whose first heading cell
/// is "key"; each row's first cell holds one key in backticks.
std::set<std::string> key_table_keys(const std::string& text) {
  std::set<std::string> keys;
  bool in_table = false, after_header = false;
  for (const std::string& raw : prose_lines(text)) {
    const std::string line = raw.substr(0, raw.find_last_not_of(' ') + 1);
    if (line.empty() || line[0] != '|') {
      in_table = false;
      continue;
    }
    const std::size_t second = line.find('|', 1);
    std::string cell = line.substr(1, second == std::string::npos ? std::string::npos : second - 1);
    cell.erase(0, cell.find_first_not_of(' '));
    cell.erase(cell.find_last_not_of(' ') + 1);
    if (!in_table) {  // a header row
      in_table = true;
      after_header = cell == "key";
      continue;
    }
    if (!after_header || cell.rfind("---", 0) == 0) continue;
    INFO("key table row: " << line);
    REQUIRE(cell.size() > 2);
    REQUIRE(cell.front() == '`');
    REQUIRE(cell.back() == '`');
    keys.insert(cell.substr(1, cell.size() - 2));
  }
  return keys;
}

std::string quoted(const fs::path& p) { return "'" + p.string() + "'"; }
std::string bundled(const std::string& relative) { return quoted(lgc::test::case_path(relative)); }

/// Runs one command that must print a JSON object and exit with `code`.
json run_json(const std::string& args, int code = 0) {
  INFO("lgcheck " << args);
  const auto r = run_lgcheck(args);
  REQUIRE(r.exit_code == code);
  json j;
  REQUIRE_NOTHROW(j = json::parse(r.out));
  REQUIRE(j.is_object());
  return j;
}

/// A temporary directory removed at the end of the scope.
struct TempDir {
  fs::path path = fs::temp_directory_path() / ("lgcheck_docs_" + std::to_string(::getpid()));
  TempDir() {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

/// The statement ids of docs/paper-statements.md: the first cell of each row of its table.
std::set<std::string> recovered_statement_ids(const std::string& text) {
  std::set<std::string> ids;
  static const std::regex row(R"(^\| (P[0-9]+) \|)");
  std::smatch m;
  for (const std::string& line : prose_lines(text))
    if (std::regex_search(line, m, row)) ids.insert(m[1].str());
  return ids;
}

/// One source label "[paper …]" of a document.
struct PaperLabel {
  std::string text;                ///< the label, brackets included
  std::vector<std::string> cited;  ///< the statement ids it names (P1, P2, …)
};

/// Every source label in the prose of `text`: a bracket that opens with "paper" ("[paper-statements.md]", a
/// link's text, does not) or names a statement ("[toolkit derivation …, paper P11]").
std::vector<PaperLabel> paper_labels(const std::string& text) {
  static const std::regex label(R"(\[paper(?![-\w.])[^\]]*\]|\[[^\[\]]*\bpaper P[0-9]+[^\[\]]*\])"),
      id(R"(\bP[0-9]+\b)");
  std::vector<PaperLabel> labels;
  for (const std::string& line : prose_lines(text)) {
    const std::string prose = without_code_spans(line);
    for (auto it = std::sregex_iterator(prose.begin(), prose.end(), label); it != std::sregex_iterator(); ++it) {
      PaperLabel l{(*it)[0].str(), {}};
      for (auto k = std::sregex_iterator(l.text.begin(), l.text.end(), id); k != std::sregex_iterator(); ++k)
        l.cited.push_back((*k)[0].str());
      labels.push_back(l);
    }
  }
  return labels;
}

/// The labels that name no statement, or a statement not in `ids`.
std::vector<std::string> unbacked_labels(const std::string& text, const std::set<std::string>& ids) {
  std::vector<std::string> bad;
  for (const PaperLabel& l : paper_labels(text)) {
    bool ok = !l.cited.empty();
    for (const std::string& c : l.cited) ok = ok && ids.count(c) == 1;
    if (!ok) bad.push_back(l.text);
  }
  return bad;
}

}  // namespace

TEST_CASE("every relative link of README.md and docs/*.md resolves inside the repository", "[docs]") {
  const fs::path root = fs::weakly_canonical(lgc::test::source_dir());
  std::size_t checked = 0;
  for (const fs::path& file : markdown_documents()) {
    const std::string text = read_text(file);
    INFO(file.string());
    CHECK(text.find("shared/spec") == std::string::npos);  // the internal working folder, outside the repository
    for (const Link& link : markdown_links(file)) {
      INFO("link (" << link.target << ")");
      if (is_external(link.target)) continue;
      ++checked;
      CHECK(link.target.find("../shared") == std::string::npos);
      const std::size_t hash = link.target.find('#');
      const std::string path = link.target.substr(0, hash);
      const std::string anchor = hash == std::string::npos ? "" : link.target.substr(hash + 1);
      REQUIRE_FALSE(fs::path(path).is_absolute());
      const fs::path resolved = fs::weakly_canonical(path.empty() ? file : file.parent_path() / path);
      const fs::path inside = resolved.lexically_relative(root);
      REQUIRE_FALSE(inside.empty());
      CHECK(*inside.begin() != "..");  // does not leave the repository root
      REQUIRE(fs::exists(resolved));
      if (!anchor.empty() && resolved.extension() == ".md") CHECK(heading_anchors(resolved).count(anchor) == 1);
    }
  }
  CHECK(checked >= 10);
  // The two reference documents exist and are linked from the README.
  const std::string readme = read_text(root / "README.md");
  CHECK(readme.find("(docs/cli.md)") != std::string::npos);
  CHECK(readme.find("(docs/case-format.md)") != std::string::npos);
}

TEST_CASE("the example of docs/case-format.md is a valid case", "[docs]") {
  // The first ```json block of the page is the complete example.
  const std::string text = read_text(lgc::test::source_dir() / "docs" / "case-format.md");
  const std::size_t start = text.find("```json\n");
  REQUIRE(start != std::string::npos);
  const std::size_t body = start + 8, end = text.find("```", body);
  REQUIRE(end != std::string::npos);
  TempDir dir;
  const fs::path file = dir.path / "example.json";
  std::ofstream(file) << text.substr(body, end - body);
  const json info = run_json("info " + quoted(file) + " --json");
  CHECK(info["name"] == "modp_p3_example");
  const json check = run_json("check " + quoted(file) + " --json");
  CHECK(check["summary"]["REFUTED"] == 0);
  CHECK(check["summary"]["expectations"]["met"] == 2);
}

TEST_CASE("docs/cli.md documents every JSON key lgcheck prints, and lgcheck prints every key it documents", "[docs]") {
#ifdef LGCHECK_SANITIZED
  // Every claim on six cases and a dozen commands, to collect the keys they print (73 s under the sanitizers):
  // whether docs/cli.md matches the output is the Release suite's check; the commands run in other tests here.
  SUCCEED("compared by the Release suite");
  return;
#endif
  const std::string doc = read_text(lgc::test::source_dir() / "docs" / "cli.md");
  const std::set<std::string> documented = code_spans(doc);
  const std::set<std::string> tabled = key_table_keys(doc);
  TempDir dir;
  std::set<std::string> printed;
  auto add = [&](const json& j) { collect_keys(j, printed); };

  // Every command with --json, on small bundled cases.
  add(run_json("info " + bundled("paper/modp/modp_p2_hardmax.json") + " --json"));
  add(run_json("info " + bundled("witnesses/farey_hat_n4.json") + " --json"));
  add(run_json("eval " + bundled("paper/modp/modp_p2_hardmax.json") + " --input 0110 --all-positions --json"));
  add(run_json("eval " + bundled("section5/regime_token.json") + " --input 0110 --json"));
  add(run_json("margin " + bundled("paper/modp/modp_p2_hardmax.json") + " --json"));
  add(run_json("margin " + bundled("pairs/modp_p2_perturbed_pair.json") + " --json"));
  add(run_json("margin " + bundled("section5/regime_token.json") + " --json"));
  add(run_json("margin " + bundled("section5/attention_pair_smooth.json") + " --json"));
  add(run_json("bound " + bundled("paper/modp/modp_p2_hardmax.json") + " --theorem 4.1 --epsilon 1/10 --json"));
  add(run_json("bound " + bundled("average/farey_hat_n4_skewed.json") + " --theorem 4.2 --epsilon 1/2 --json"));
  add(run_json("bound " + bundled("section5/attention_pair_smooth.json") + " --theorem 5.2 --epsilon 1/10 --json"));
  add(run_json("simulate " + bundled("paper/modp/modp_p2_hardmax.json") + " --random 30 --epsilon 1/10 --json"));
  add(run_json("simulate " + bundled("section5/regime_token.json") + " --random 200 --epsilon 1/2 --json"));
  add(run_json("threshold " + bundled("witnesses/farey_hat_n4.json") + " --epsilon 1/20 --max-length 8 --json"));
  add(run_json("average " + bundled("average/farey_hat_n4_uniform.json") + " --length 50 --method both --json"));
  add(run_json("average " + bundled("witnesses/margin_witness_gamma1_2_p2.json") + " --length 15 --alpha 1,1 --json"));
  add(run_json("check " + bundled("section4/attend_ones_gamma2_finite_weights6.json") + " --json"));

  // check: one run over cases on which every registered claim applies. The
  // Theorem 5.2 and T4.1.lg cases are generated small (a short x; a short
  // distance curve whose simulation bound is reached).
  const fs::path attention = dir.path / "attention.json", perturbed = dir.path / "perturbed.json";
  REQUIRE(run_lgcheck("gen --check '{\"simulation_length\": 1000}' --out " + quoted(attention) + " attention-pair")
              .exit_code == 0);
  REQUIRE(run_lgcheck("gen --check '{\"max_length\": 40}' --out " + quoted(perturbed) + " modp-pair --p 1 --eta 1/100")
              .exit_code == 0);
  const json check = run_json("check " + bundled("paper/modp/modp_p2_hardmax.json") + " " +
                              bundled("witnesses/farey_hat_n4.json") + " " + bundled("average/regularity_k64.json") +
                              " " + bundled("section5/kgram_k1_s2.json") + " " + quoted(attention) + " " +
                              quoted(perturbed) + " --json");
  add(check);
  std::set<std::string> claim_ids;
  for (const json& row : check["claims"]) claim_ids.insert(row["id"].get<std::string>());
  add(run_json("check " + bundled("average/farey_hat_n4_uniform.json") + " --claims 'T4.2.*' --json"));
  // T5.2.witness, holding and refuted (agreement claimed at the first differing length, 17).
  add(run_json("check " + bundled("witnesses/position_witness_gamma1_2_rho1_4.json") +
               " --claims 'T5.2.witness' --json"));
  json beyond = json::parse(std::ifstream(lgc::test::case_path("witnesses/position_witness_gamma1_2_rho1_4.json")));
  beyond["check"]["witness_n"] = 17;
  beyond.erase("expect");
  const fs::path beyond_file = dir.path / "position_witness_beyond.json";
  std::ofstream(beyond_file) << beyond.dump();
  add(run_json("check " + quoted(beyond_file) + " --claims 'T5.2.witness' --json", 1));
  // A budget that runs out: UNDECIDED rows whose evidence is the budget (exit 3).
  add(run_json("check " + bundled("witnesses/farey_hat_n4.json") + " --budget 1 --json", 3));
  // Shards (the expected verdicts under "expect" are keyed by claim id: data) and their merge.
  std::vector<std::string> parts;
  for (int i = 0; i < 2; ++i) {
    const json part = run_json("check " + bundled("witnesses/farey_hat_n4.json") + " --shard " + std::to_string(i) +
                               "/2 --json");
    collect_keys(part, printed, {"expect"});
    parts.push_back((dir.path / ("part" + std::to_string(i) + ".json")).string());
    std::ofstream(parts.back()) << part.dump();
  }
  add(run_json("merge '" + parts[0] + "' '" + parts[1] + "' --json"));
  // A certificate's top-level keys (its case is in the case format, its scope
  // and evidence as in check --json).
  const fs::path certificates = dir.path / "certificates";
  REQUIRE(run_lgcheck("check " + bundled("witnesses/farey_hat_n4.json") + " --claims 'T4.1.witness' --certificates " +
                      quoted(certificates))
              .exit_code == 0);
  std::size_t certificate_count = 0;
  for (const auto& entry : fs::directory_iterator(certificates)) {
    collect_top_level_keys(json::parse(read_text(entry.path())), printed);
    ++certificate_count;
  }
  CHECK(certificate_count == 1);
  // table --format json: its top level (each table's rows have keys of their own).
  {
    const auto r = run_lgcheck("table sim_lengths --format json --cases " + quoted(lgc::test::source_dir() / "cases"));
    REQUIRE(r.exit_code == 0);
    collect_top_level_keys(json::parse(r.out), printed);
  }

  {  // every claim ran, so every claim's evidence was seen
    std::set<std::string> ids{"T4.2.avg"};
    ids.insert(claim_ids.begin(), claim_ids.end());
    CHECK(ids.size() == 13);
  }
  {  // every printed key is documented in docs/cli.md
    for (const std::string& key : printed) {
      INFO("printed key `" << key << "` is not in docs/cli.md");
      CHECK(documented.count(key) == 1);
    }
  }
  {  // every key of docs/cli.md's key tables is printed
    // Printed only when a claim is refuted, which no bundled case does: the
    // counterexample's query position of S.consistency (beside its `input`,
    // which other claims print too).
    const std::set<std::string> only_on_refutation{"position"};
    CHECK(tabled.size() > 150);
    for (const std::string& key : tabled) {
      if (only_on_refutation.count(key)) continue;
      INFO("documented key `" << key << "` is printed by none of the commands run");
      CHECK(printed.count(key) == 1);
    }
  }
}

TEST_CASE("Every [paper] label of the docs names a statement of docs/paper-statements.md, and every statement is used",
          "[docs][labels]") {
  const fs::path root = lgc::test::source_dir();
  const std::set<std::string> ids = recovered_statement_ids(read_text(root / "docs" / "paper-statements.md"));
  REQUIRE(ids.size() >= 10);
  std::set<std::string> used;
  std::size_t labels = 0;
  for (const fs::path& file : markdown_documents()) {
    if (file.filename() == "paper-statements.md") continue;
    const std::string text = read_text(file);
    INFO(file.string());
    CHECK(unbacked_labels(text, ids).empty());
    for (const PaperLabel& l : paper_labels(text)) {
      ++labels;
      used.insert(l.cited.begin(), l.cited.end());
    }
  }
  CHECK(labels >= 15);  // theory.md's section labels
  for (const std::string& id : ids) {
    INFO("statement " << id << " is cited by no [paper] label");
    CHECK(used.count(id) == 1);
  }
  // The check has teeth: a bare label, an unknown statement and a label with no id are caught; a link's text is not a label.
  CHECK(unbacked_labels("### Norm [paper]", ids) == std::vector<std::string>{"[paper]"});
  CHECK(unbacked_labels("### X [paper P99]", ids) == std::vector<std::string>{"[paper P99]"});
  CHECK(unbacked_labels("**Y [paper statement; toolkit check]**", ids).size() == 1);
  CHECK(unbacked_labels("### W [toolkit form, paper P99]", ids) == std::vector<std::string>{"[toolkit form, paper P99]"});
  CHECK(unbacked_labels("### Z [paper P5, P13 forms]", ids).empty());
  CHECK(paper_labels("see [paper-statements.md](paper-statements.md)").empty());
}

TEST_CASE("docs/architecture.md names only folders and files that exist", "[docs]") {
  const fs::path root = lgc::test::source_dir();
  const std::string text = read_text(root / "docs" / "architecture.md");
  std::size_t checked = 0;
  for (const std::string& span : code_spans(text)) {
    // A path of the repository: it starts at a top-level folder; placeholders (<module>) and globs are not paths.
    if (span.find_first_of("<>* ") != std::string::npos) continue;
    if (span.rfind("lib/", 0) != 0 && span.rfind("checkers/", 0) != 0 && span.rfind("cmake/", 0) != 0 &&
        span.rfind("tests/", 0) != 0)
      continue;
    INFO("docs/architecture.md names `" << span << "`");
    CHECK(fs::exists(root / span));
    ++checked;
  }
  CHECK(checked >= 15);
  // Every module folder of lib/src/ is in the stack the document states, and has its README.
  for (const auto& entry : fs::directory_iterator(root / "lib" / "src")) {
    const std::string module = entry.path().filename().string();
    INFO("lib/src/" << module);
    CHECK(text.find(module) != std::string::npos);
    CHECK(fs::exists(entry.path() / "README.md"));
  }
}
