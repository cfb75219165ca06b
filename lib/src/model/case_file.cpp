#include "lgcheck/model/case_file.hpp"

#include <algorithm>
#include <fstream>
#include <functional>
#include <optional>
#include <set>
#include <sstream>

namespace lgc {

std::optional<InputFamily> parse_input_family(const std::string& text) {
  InputFamily f;
  f.name = text;
  if (text == "uniform") return f;
  if (text == "single") {
    f.kind = InputFamily::Kind::Single;
    return f;
  }
  if (text == "last") {
    f.kind = InputFamily::Kind::Last;
    return f;
  }
  const std::string prefix = "rate:1/";
  if (text.rfind(prefix, 0) != 0 || text.size() == prefix.size() || text.size() > prefix.size() + 9) return std::nullopt;
  for (char ch : text.substr(prefix.size()))
    if (ch < '0' || ch > '9') return std::nullopt;
  f.kind = InputFamily::Kind::Rate;
  f.inverse_rate = std::stoull(text.substr(prefix.size()));
  if (f.inverse_rate < 2) return std::nullopt;
  return f;
}
namespace {

constexpr std::uintmax_t kMaxCaseFileBytes = std::uintmax_t(256) << 20;  // far above any model of the toolkit

using nlohmann::json;

std::string join_path(const std::string& base, const std::string& key) {
  return base.empty() ? key : base + "." + key;
}

std::string index_path(const std::string& base, std::size_t i) { return base + "[" + std::to_string(i) + "]"; }

std::string type_name(const json& v) {
  if (v.is_number_float()) return "a JSON float";
  return std::string("a JSON ") + v.type_name();
}

/// Reads one JSON object of the case format, remembering the file and path.
class Reader {
 public:
  Reader(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const std::string& path, const std::string& what) const {
    throw CaseError(file_, path, what);
  }

  const std::string& file() const { return file_; }

  void require_object(const json& v, const std::string& path, const std::set<std::string>& allowed) const {
    if (!v.is_object()) fail(path, "expected an object, got " + type_name(v));
    for (const auto& [key, unused] : v.items()) {
      if (!allowed.count(key)) {
        std::string list;
        for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
        fail(join_path(path, key), "unknown field (expected one of: " + list + ")");
      }
    }
  }

  const json& field(const json& obj, const std::string& path, const std::string& key) const {
    auto it = obj.find(key);
    if (it == obj.end()) fail(join_path(path, key), "missing required field");
    return *it;
  }

  std::string string(const json& v, const std::string& path) const {
    if (!v.is_string()) fail(path, "expected a string, got " + type_name(v));
    return v.get<std::string>();
  }

  std::size_t count(const json& v, const std::string& path, std::size_t minimum, std::size_t maximum) const {
    Integer z;
    if (v.is_number_unsigned() || v.is_number_integer()) {
      z = Integer(v.get<long long>());
    } else if (v.is_string()) {
      try {
        z = parse_integer(v.get<std::string>());
      } catch (const ParseError& e) {
        fail(path, e.what());
      }
    } else {
      fail(path, "expected an integer, got " + type_name(v));
    }
    if (z < minimum || z > maximum)
      fail(path, "expected an integer in [" + std::to_string(minimum) + ", " + std::to_string(maximum) + "], got " +
                     z.str());
    return static_cast<std::size_t>(z);
  }

  Rational number(const json& v, const std::string& path) const { return json_rational(v, file_, path); }

  QVector vector(const json& v, const std::string& path, std::size_t size, const std::string& what) const {
    if (!v.is_array()) fail(path, "expected an array of " + std::to_string(size) + " numbers, got " + type_name(v));
    if (v.size() != size)
      fail(path, "expected " + std::to_string(size) + " entries (" + what + "), got " + std::to_string(v.size()));
    QVector out(size);
    for (std::size_t k = 0; k < size; ++k) out[k] = number(v[k], index_path(path, k));
    return out;
  }

  /// rows×cols; rows == 0 means "any number >= 1", reported through `rows_what`.
  QMatrix matrix(const json& v, const std::string& path, std::size_t rows, const std::string& rows_what,
                 std::size_t cols, const std::string& cols_what) const {
    if (!v.is_array()) fail(path, "expected an array of rows, got " + type_name(v));
    if (rows == 0 && v.empty()) fail(path, "expected at least one row (" + rows_what + ")");
    if (rows != 0 && v.size() != rows)
      fail(path, "expected " + std::to_string(rows) + " rows (" + rows_what + "), got " + std::to_string(v.size()));
    QMatrix m(v.size(), cols);
    for (std::size_t r = 0; r < v.size(); ++r) {
      QVector row = vector(v[r], index_path(path, r), cols, cols_what);
      for (std::size_t c = 0; c < cols; ++c) m(r, c) = row[c];
    }
    return m;
  }

 private:
  std::string file_;
};

std::vector<std::string> read_alphabet(const Reader& in, const json& v, const std::string& path) {
  if (!v.is_array() || v.empty()) in.fail(path, "expected a non-empty array of token names");
  std::vector<std::string> names;
  std::set<std::string> seen;
  for (std::size_t k = 0; k < v.size(); ++k) {
    std::string p = index_path(path, k);
    std::string name = in.string(v[k], p);
    if (name.empty()) in.fail(p, "a token name must not be empty");
    for (char c : name)
      if (std::isspace(static_cast<unsigned char>(c))) in.fail(p, "a token name must not contain white space");
    if (!seen.insert(name).second) in.fail(p, "token name \"" + name + "\" appears twice");
    names.push_back(name);
  }
  return names;
}

Head read_head(const Reader& in, const json& v, const std::string& path, std::size_t d, std::size_t tau) {
  in.require_object(v, path, {"qk", "k", "q", "value", "phi"});
  Head head;
  std::string width = "width " + std::to_string(d);
  bool has_qk = v.contains("qk"), has_k = v.contains("k"), has_q = v.contains("q");
  if (has_qk && (has_k || has_q)) in.fail(path, "give either \"qk\" or \"k\" and \"q\", not both");
  if (has_qk) {
    head.qk = in.matrix(v["qk"], join_path(path, "qk"), d, width, d, width);
  } else if (has_k && has_q) {
    QMatrix k = in.matrix(v["k"], join_path(path, "k"), 0, "m >= 1", d, width);
    QMatrix q = in.matrix(v["q"], join_path(path, "q"), k.rows(), "as many as \"k\"", d, width);
    head.qk = multiply(transpose(k), q);
  } else {
    in.fail(join_path(path, "qk"), "missing required field (or give both \"k\" and \"q\")");
  }
  head.value = in.matrix(in.field(v, path, "value"), join_path(path, "value"), d, width, d, width);
  head.phi = in.vector(in.field(v, path, "phi"), join_path(path, "phi"), tau + 1,
                       "locality " + std::to_string(tau));
  return head;
}

Mlp read_mlp(const Reader& in, const json& v, const std::string& path, std::size_t d) {
  in.require_object(v, path, {"in", "in_bias", "out", "out_bias"});
  std::string width = "width " + std::to_string(d);
  Mlp mlp;
  mlp.in = in.matrix(in.field(v, path, "in"), join_path(path, "in"), 0, "hidden units >= 1", d, width);
  std::size_t h = mlp.in.rows();
  std::string hidden = std::to_string(h) + " hidden units";
  mlp.in_bias = in.vector(in.field(v, path, "in_bias"), join_path(path, "in_bias"), h, hidden);
  mlp.out = in.matrix(in.field(v, path, "out"), join_path(path, "out"), d, width, h, hidden);
  mlp.out_bias = in.vector(in.field(v, path, "out_bias"), join_path(path, "out_bias"), d, width);
  return mlp;
}

Readout read_readout(const Reader& in, const json& v, const std::string& path, std::size_t d) {
  in.require_object(v, path, {"weights", "bias", "activation"});
  std::string width = "width " + std::to_string(d);
  Readout r;
  r.weights = in.matrix(in.field(v, path, "weights"), join_path(path, "weights"), 0, "outputs >= 1", d, width);
  r.bias = in.vector(in.field(v, path, "bias"), join_path(path, "bias"), r.weights.rows(),
                     std::to_string(r.weights.rows()) + " outputs");
  if (v.contains("activation")) {
    const json& a = v["activation"];
    std::string apath = join_path(path, "activation");
    if (a.is_string()) {
      if (a.get<std::string>() != "identity")
        in.fail(apath, "expected \"identity\" or {\"sin\": \"<omega>\"}, got \"" + a.get<std::string>() + "\"");
    } else if (a.is_object()) {
      in.require_object(a, apath, {"sin"});
      r.sin_omega = in.number(in.field(a, apath, "sin"), join_path(apath, "sin"));
    } else {
      in.fail(apath, "expected \"identity\" or {\"sin\": \"<omega>\"}, got " + type_name(a));
    }
  }
  return r;
}

void check_expect_block(const Reader& in, const json& v, const std::string& path) {
  in.require_object(v, path, {"logit_margin", "verdicts"});
  if (v.contains("logit_margin") && !(v["logit_margin"].is_string() && v["logit_margin"] == "inf"))
    in.number(v["logit_margin"], join_path(path, "logit_margin"));
  if (v.contains("verdicts")) {
    std::string vpath = join_path(path, "verdicts");
    if (!v["verdicts"].is_object()) in.fail(vpath, "expected an object {claim id: verdict}");
    for (const auto& [id, verdict] : v["verdicts"].items()) {
      std::string s = in.string(verdict, join_path(vpath, id));
      if (s != "PROVED" && s != "SAMPLED" && s != "VACUOUS" && s != "REFUTED" && s != "UNDECIDED")
        in.fail(join_path(vpath, id), "expected PROVED, SAMPLED, VACUOUS, REFUTED or UNDECIDED, got \"" + s + "\"");
    }
  }
}

void check_positive(const Reader& in, const json& v, const std::string& key, const std::string& path) {
  if (!v.contains(key)) return;
  Rational e = in.number(v[key], join_path(path, key));
  if (e <= 0) in.fail(join_path(path, key), "expected a positive number, got " + to_string(e));
}

/// Theorem 4.2's parameters: the bound's constants, the sweep's budget and
/// the regularity counterexample's switch.
void check_average_keys(const Reader& in, const json& v, const std::string& path, const Model& model) {
  check_positive(in, v, "N0_constant", path);
  check_positive(in, v, "conclusion_constant", path);
  check_positive(in, v, "subsample_constant", path);
  if (v.contains("N0_log_power")) in.count(v["N0_log_power"], join_path(path, "N0_log_power"), 0, 16);
  if (v.contains("doublings")) in.count(v["doublings"], join_path(path, "doublings"), 0, 20);
  if (v.contains("average_budget")) in.count(v["average_budget"], join_path(path, "average_budget"), 1, 1000000);
  if (v.contains("conclusion_term_budget"))
    in.count(v["conclusion_term_budget"], join_path(path, "conclusion_term_budget"), 0, 100000000);
  if (v.contains("switch_length")) in.count(v["switch_length"], join_path(path, "switch_length"), 1, 1000000000);
  if (v.contains("subsample_length"))
    in.count(v["subsample_length"], join_path(path, "subsample_length"), 100, 10000000);
  if (v.contains("simulation_length"))
    in.count(v["simulation_length"], join_path(path, "simulation_length"), 1000, 10000000);
  if (v.contains("simulation_inputs")) {
    const std::string spath = join_path(path, "simulation_inputs");
    const json& a = v["simulation_inputs"];
    if (!a.is_array() || a.empty()) in.fail(spath, "expected a non-empty array of input families");
    for (std::size_t k = 0; k < a.size(); ++k) {
      const std::string family = in.string(a[k], index_path(spath, k));
      if (!parse_input_family(family))
        in.fail(index_path(spath, k),
                "expected \"uniform\", \"single\", \"last\" or \"rate:1/K\" (K >= 2), got \"" + family + "\"");
      if (family != "uniform" && model.alphabet_size() < 2)
        in.fail(index_path(spath, k), "\"" + family + "\" puts 1s among 0s: it needs an alphabet of at least 2 symbols");
      for (std::size_t e = 0; e < k; ++e)
        if (a[e] == a[k])
          in.fail(index_path(spath, k), "\"" + family + "\" is listed twice (at " + std::to_string(e) +
                                           "): each family names one input x");
    }
  }
  if (v.contains("kgram_k")) in.count(v["kgram_k"], join_path(path, "kgram_k"), 1, 16);
  if (v.contains("rho")) {
    Rational rho = in.number(v["rho"], join_path(path, "rho"));
    if (rho <= 0 || rho > 1) in.fail(join_path(path, "rho"), "expected a number in (0, 1], got " + to_string(rho));
  }
  if (v.contains("regularity_tail")) in.count(v["regularity_tail"], join_path(path, "regularity_tail"), 1, 1000000);
  if (v.contains("short_alphabet")) {
    const std::string spath = join_path(path, "short_alphabet");
    const json& a = v["short_alphabet"];
    if (!a.is_array() || a.empty() || a.size() >= model.alphabet_size())
      in.fail(spath, "expected a non-empty array of symbols, a proper subset of the alphabet");
    std::set<std::string> seen;
    for (std::size_t k = 0; k < a.size(); ++k) {
      std::string symbol = in.string(a[k], index_path(spath, k));
      if (std::find(model.alphabet.begin(), model.alphabet.end(), symbol) == model.alphabet.end())
        in.fail(index_path(spath, k), "\"" + symbol + "\" is not a symbol of the alphabet");
      if (!seen.insert(symbol).second) in.fail(index_path(spath, k), "\"" + symbol + "\" is listed twice");
    }
  }
}

/// Every checker parameter a claim reads (docs/case-format.md, "The check block").
const std::set<std::string> kCheckKeys = {
    "epsilon",       "max_length",         "precision_bits",    "random_inputs",     "seed",
    "witness_n",     "witness_length",     "threshold_sharp",   "eta",               "dirichlet_alpha",
    "N0_constant",   "N0_log_power",       "conclusion_constant", "doublings",       "average_budget",
    "conclusion_term_budget", "switch_length", "short_alphabet", "regularity_tail",  "kgram_k",
    "rho",           "subsample_constant", "subsample_length",  "simulation_length", "simulation_inputs",
    "exhaustive_span"};

void check_check_block(const Reader& in, const json& v, const std::string& path, const Model& model) {
  const std::size_t alphabet_size = model.alphabet_size();
  if (!v.is_object()) in.fail(path, "expected an object of checker parameters, got " + type_name(v));
  for (const auto& [key, value] : v.items())
    if (!kCheckKeys.count(key)) {
      std::string known;
      for (const std::string& k : kCheckKeys) known += (known.empty() ? "" : ", ") + k;
      in.fail(join_path(path, key), "unknown checker parameter (expected one of: " + known + ")");
    }
  if (v.contains("epsilon")) {
    Rational e = in.number(v["epsilon"], join_path(path, "epsilon"));
    if (e <= 0) in.fail(join_path(path, "epsilon"), "expected a positive number, got " + to_string(e));
  }
  if (v.contains("max_length")) in.count(v["max_length"], join_path(path, "max_length"), 1, 1000000000);
  if (v.contains("precision_bits")) in.count(v["precision_bits"], join_path(path, "precision_bits"), 1, kMaxFiniteBits);
  if (v.contains("random_inputs")) in.count(v["random_inputs"], join_path(path, "random_inputs"), 0, 1000000);
  if (v.contains("seed")) in.count(v["seed"], join_path(path, "seed"), 0, 4294967295u);
  if (v.contains("exhaustive_span")) in.count(v["exhaustive_span"], join_path(path, "exhaustive_span"), 0, 1000000);
  if (v.contains("witness_n")) in.count(v["witness_n"], join_path(path, "witness_n"), 1, 1000000);
  if (v.contains("witness_length")) in.count(v["witness_length"], join_path(path, "witness_length"), 1, 2000000);
  if (v.contains("threshold_sharp") && !v["threshold_sharp"].is_boolean())
    in.fail(join_path(path, "threshold_sharp"), "expected true or false, got " + type_name(v["threshold_sharp"]));
  if (v.contains("eta")) {
    Rational e = in.number(v["eta"], join_path(path, "eta"));
    if (e <= 0) in.fail(join_path(path, "eta"), "expected a positive number, got " + to_string(e));
  }
  if (v.contains("dirichlet_alpha") && alphabet_size > 0) {
    QVector alpha = in.vector(v["dirichlet_alpha"], join_path(path, "dirichlet_alpha"), alphabet_size,
                              "alphabet size " + std::to_string(alphabet_size));
    for (std::size_t k = 0; k < alpha.size(); ++k)
      if (alpha[k] <= 0) in.fail(index_path(join_path(path, "dirichlet_alpha"), k), "expected a positive number");
  }
  check_average_keys(in, v, path, model);
}

const std::set<std::string> kModelFields = {"format", "name",     "description", "alphabet", "width",
                                            "period", "locality", "semantics",   "embedding", "positional",
                                            "layers", "readout",  "check",       "expect"};

void check_format(const Reader& in, const json& doc) {
  const json& f = in.field(doc, "", "format");
  if (!f.is_string() || f.get<std::string>() != kCaseFormat)
    in.fail("format", std::string("expected \"") + kCaseFormat + "\", got " + f.dump());
}

Model read_model(const Reader& in, const json& v, const std::string& path) {
  in.require_object(v, path, kModelFields);
  if (v.contains("format")) check_format(in, v);
  Model m;
  if (v.contains("name")) m.name = in.string(v["name"], join_path(path, "name"));
  if (v.contains("description")) m.description = in.string(v["description"], join_path(path, "description"));
  m.alphabet = read_alphabet(in, in.field(v, path, "alphabet"), join_path(path, "alphabet"));
  m.width = in.count(in.field(v, path, "width"), join_path(path, "width"), 1, 4096);
  m.period = in.count(in.field(v, path, "period"), join_path(path, "period"), 1, 1000000);
  m.locality = in.count(in.field(v, path, "locality"), join_path(path, "locality"), 0, 1000000);
  if (v.contains("semantics")) {
    std::string s = in.string(v["semantics"], join_path(path, "semantics"));
    try {
      m.semantics = Semantics::parse(s);
    } catch (const std::invalid_argument& e) {
      in.fail(join_path(path, "semantics"), e.what());
    }
  }
  std::size_t d = m.width, S = m.alphabet.size();
  std::string width = "width " + std::to_string(d);
  m.embedding = in.matrix(in.field(v, path, "embedding"), join_path(path, "embedding"), S,
                          "alphabet size " + std::to_string(S), d, width);
  m.positional = in.matrix(in.field(v, path, "positional"), join_path(path, "positional"), m.period,
                           "period " + std::to_string(m.period), d, width);
  const json& layers = in.field(v, path, "layers");
  std::string lpath = join_path(path, "layers");
  if (!layers.is_array() || layers.empty()) in.fail(lpath, "expected a non-empty array of layers");
  for (std::size_t l = 0; l < layers.size(); ++l) {
    std::string p = index_path(lpath, l);
    in.require_object(layers[l], p, {"heads", "mlp"});
    const json& heads = in.field(layers[l], p, "heads");
    std::string hpath = join_path(p, "heads");
    if (!heads.is_array() || heads.empty()) in.fail(hpath, "expected a non-empty array of heads");
    Layer layer;
    for (std::size_t h = 0; h < heads.size(); ++h)
      layer.heads.push_back(read_head(in, heads[h], index_path(hpath, h), d, m.locality));
    if (layers[l].contains("mlp")) layer.mlp = read_mlp(in, layers[l]["mlp"], join_path(p, "mlp"), d);
    m.layers.push_back(std::move(layer));
  }
  m.readout = read_readout(in, in.field(v, path, "readout"), join_path(path, "readout"), d);
  return m;
}

}  // namespace

namespace {

/// Refuses what is not a case file before reading it: a directory, a FIFO
/// or device (which could block or never end), a file beyond the size cap.
void require_readable_case_file(const std::filesystem::path& file) {
  std::error_code ec;
  const auto status = std::filesystem::status(file, ec);
  if (ec || !std::filesystem::exists(status)) throw CaseError(file.string(), "", "cannot open file for reading: no such file");
  if (std::filesystem::is_directory(status))
    throw CaseError(file.string(), "", "is a directory, not a case file (give the directory to check, or a .json file)");
  if (!std::filesystem::is_regular_file(status))
    throw CaseError(file.string(), "", "not a regular file (a FIFO, socket or device is not read as a case)");
  const auto size = std::filesystem::file_size(file, ec);
  if (!ec && size > kMaxCaseFileBytes)
    throw CaseError(file.string(), "", "file of " + std::to_string(size) + " bytes, beyond the " +
                                           std::to_string(kMaxCaseFileBytes >> 20) + " MiB a case file may have");
}

/// A JSON parser callback that remembers the path of the first key an object
/// repeats (the library would keep the last silently).
class DuplicateKeyFinder {
 public:
  bool operator()(int /*depth*/, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start: frames_.push_back({false, 0, {}, {}}); break;
      case json::parse_event_t::array_start: frames_.push_back({true, 0, {}, {}}); break;
      case json::parse_event_t::key: {
        Frame& top = frames_.back();
        top.key = parsed.get<std::string>();
        if (!top.keys.insert(top.key).second && !duplicate_) duplicate_ = path();
        break;
      }
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end:
        frames_.pop_back();
        element_done();
        break;
      case json::parse_event_t::value: element_done(); break;
    }
    return true;
  }
  const std::optional<std::string>& duplicate() const { return duplicate_; }

 private:
  struct Frame {
    bool array;
    std::size_t index;
    std::string key;
    std::set<std::string> keys;
  };
  void element_done() {
    if (!frames_.empty() && frames_.back().array) ++frames_.back().index;
  }
  std::string path() const {
    std::string p;
    for (const Frame& f : frames_)
      p += f.array ? "[" + std::to_string(f.index) + "]" : (p.empty() ? "" : ".") + f.key;
    return p;
  }
  std::vector<Frame> frames_;
  std::optional<std::string> duplicate_;
};

}  // namespace

json parse_json_file(const std::filesystem::path& file) {
  require_readable_case_file(file);
  std::ifstream stream(file);
  if (!stream) throw CaseError(file.string(), "", "cannot open file for reading");
  std::stringstream buffer;
  buffer << stream.rdbuf();
  DuplicateKeyFinder duplicates;
  json doc;
  try {
    doc = json::parse(buffer.str(), std::ref(duplicates));
  } catch (const json::parse_error& e) {
    std::string what = e.what();
    if (what.size() > 300) what = what.substr(0, 300) + "... (" + std::to_string(what.size()) + " characters)";
    throw CaseError(file.string(), "", "not valid JSON: " + what);
  } catch (const json::out_of_range&) {
    // An unquoted number beyond any machine type (the library's message repeats all its digits).
    throw CaseError(file.string(), "",
                    "a JSON number too large for a machine number; write exact numbers as strings, e.g. \"1e400\" or "
                    "\"123456789012345678901234567890\"");
  }
  if (duplicates.duplicate())
    throw CaseError(file.string(), *duplicates.duplicate(), "this key appears twice in its object (JSON keeps only one)");
  return doc;
}

namespace {

json vector_json(const QVector& v) {
  json a = json::array();
  for (const auto& q : v) a.push_back(to_string(q));
  return a;
}

json matrix_json(const QMatrix& m) {
  json a = json::array();
  for (std::size_t r = 0; r < m.rows(); ++r) a.push_back(vector_json(m.row(r)));
  return a;
}

void check_pair_compatible(const Reader& in, const Model& f, const Model& g) {
  if (f.alphabet != g.alphabet) in.fail("pair[1].alphabet", "the two models of a pair must share the alphabet");
  if (f.period != g.period)
    in.fail("pair[1].period", "the two models of a pair must share the period (" + std::to_string(f.period) +
                                  " vs " + std::to_string(g.period) + ")");
  if (f.locality != g.locality)
    in.fail("pair[1].locality", "the two models of a pair must share the locality (" + std::to_string(f.locality) +
                                    " vs " + std::to_string(g.locality) + ")");
}

Model read_pair_member(const Reader& in, const json& v, const std::string& path, const std::filesystem::path& file) {
  if (v.is_string()) {
    std::filesystem::path member = file.parent_path() / v.get<std::string>();
    // A member is a model file: refuse a pair before parsing it, so a pair
    // naming itself or two pairs naming each other end here, not in a loop.
    json doc = parse_json_file(member);
    if (doc.is_object() && doc.contains("pair"))
      in.fail(path, "\"" + v.get<std::string>() + "\" is a pair case; a pair holds two models (a pair naming itself or "
                    "another pair is refused)");
    return parse_case(doc, member).model();
  }
  if (v.is_object()) return read_model(in, v, path);
  in.fail(path, "expected a model file name or an inline model object, got " + type_name(v));
}

}  // namespace

CaseError::CaseError(std::string file, std::string json_path, std::string what)
    : std::runtime_error(file + ": " + (json_path.empty() ? "" : json_path + ": ") + what),
      file_(std::move(file)),
      json_path_(std::move(json_path)),
      reason_(std::move(what)) {}

Rational json_rational(const json& value, const std::string& file, const std::string& json_path) {
  if (value.is_number_float())
    throw CaseError(file, json_path,
                    "a JSON number with a fraction or exponent is not exact; quote it as a string, e.g. \"" +
                        value.dump() + "\"");
  if (value.is_number_unsigned()) return Rational(Integer(value.get<unsigned long long>()));
  if (value.is_number_integer()) return Rational(Integer(value.get<long long>()));
  if (!value.is_string())
    throw CaseError(file, json_path, "expected a number written as a string (\"-7/4\", \"0.125\"), got " + type_name(value));
  try {
    return parse_rational(value.get<std::string>());
  } catch (const ParseError& e) {
    throw CaseError(file, json_path, e.what());
  }
}

std::uint64_t Case::check_count(const std::string& key, std::uint64_t fallback) const {
  if (!check.contains(key)) return fallback;
  Rational q = json_rational(check[key], file, "check." + key);
  if (!is_integer(q) || q < 0) throw CaseError(file, "check." + key, "expected a non-negative integer");
  return static_cast<std::uint64_t>(boost::multiprecision::numerator(q));
}

bool Case::check_flag(const std::string& key, bool fallback) const {
  if (!check.contains(key)) return fallback;
  if (!check[key].is_boolean()) throw CaseError(file, "check." + key, "expected true or false");
  return check[key].get<bool>();
}

Rational Case::check_rational(const std::string& key, const Rational& fallback) const {
  if (!check.contains(key)) return fallback;
  return json_rational(check[key], file, "check." + key);
}

Model parse_model(const json& object, const std::string& file, const std::string& json_path) {
  return read_model(Reader(file), object, json_path);
}

Case parse_case(const json& doc, const std::filesystem::path& file) {
  Reader in(file.string());
  if (!doc.is_object()) in.fail("", "expected a JSON object at the top level");
  check_format(in, doc);
  Case c;
  c.file = file.string();
  if (doc.contains("pair")) {
    in.require_object(doc, "", {"format", "name", "description", "pair", "check", "expect"});
    const json& pair = doc["pair"];
    if (!pair.is_array() || pair.size() != 2) in.fail("pair", "expected an array of exactly two models");
    c.is_pair = true;
    c.models.push_back(read_pair_member(in, pair[0], "pair[0]", file));
    c.models.push_back(read_pair_member(in, pair[1], "pair[1]", file));
    check_pair_compatible(in, c.models[0], c.models[1]);
  } else {
    c.models.push_back(read_model(in, doc, ""));
  }
  if (doc.contains("name")) c.name = in.string(doc["name"], "name");
  if (c.name.empty()) c.name = file.stem().string();
  if (!c.is_pair && c.models[0].name.empty()) c.models[0].name = c.name;
  if (doc.contains("description")) c.description = in.string(doc["description"], "description");
  if (doc.contains("check")) {
    check_check_block(in, doc["check"], "check", c.models[0]);
    c.check = doc["check"];
  }
  if (doc.contains("expect")) {
    check_expect_block(in, doc["expect"], "expect");
    c.expect = doc["expect"];
  }
  return c;
}

Case load_case(const std::filesystem::path& file) { return parse_case(parse_json_file(file), file); }

json model_to_json(const Model& m) {
  json j;
  j["format"] = kCaseFormat;
  j["name"] = m.name;
  if (!m.description.empty()) j["description"] = m.description;
  j["alphabet"] = m.alphabet;
  j["width"] = m.width;
  j["period"] = m.period;
  j["locality"] = m.locality;
  j["semantics"] = m.semantics.str();
  j["embedding"] = matrix_json(m.embedding);
  j["positional"] = matrix_json(m.positional);
  json layers = json::array();
  for (const auto& layer : m.layers) {
    json heads = json::array();
    for (const auto& h : layer.heads)
      heads.push_back({{"qk", matrix_json(h.qk)}, {"value", matrix_json(h.value)}, {"phi", vector_json(h.phi)}});
    json lj = {{"heads", heads}};
    if (layer.mlp)
      lj["mlp"] = {{"in", matrix_json(layer.mlp->in)},
                   {"in_bias", vector_json(layer.mlp->in_bias)},
                   {"out", matrix_json(layer.mlp->out)},
                   {"out_bias", vector_json(layer.mlp->out_bias)}};
    layers.push_back(lj);
  }
  j["layers"] = layers;
  json readout = {{"weights", matrix_json(m.readout.weights)}, {"bias", vector_json(m.readout.bias)}};
  if (m.readout.sin_omega)
    readout["activation"] = {{"sin", to_string(*m.readout.sin_omega)}};
  else
    readout["activation"] = "identity";
  j["readout"] = readout;
  return j;
}

json case_to_json(const Case& c) {
  json j;
  if (c.is_pair) {
    j["format"] = kCaseFormat;
    j["name"] = c.name;
    if (!c.description.empty()) j["description"] = c.description;
    json f = model_to_json(c.models.at(0)), g = model_to_json(c.models.at(1));
    f.erase("format");
    g.erase("format");
    j["pair"] = json::array({f, g});
  } else {
    j = model_to_json(c.model());
    j["name"] = c.name;
    if (!c.description.empty()) j["description"] = c.description;
  }
  if (!c.check.empty()) j["check"] = c.check;
  if (!c.expect.empty()) j["expect"] = c.expect;
  return j;
}

void save_case(const Case& c, const std::filesystem::path& file) {
  std::filesystem::path tmp = file;
  tmp += ".tmp";
  {
    std::ofstream out(tmp);
    if (!out) throw CaseError(file.string(), "", "cannot open file for writing");
    out << case_to_json(c).dump(2) << "\n";
    if (!out) throw CaseError(file.string(), "", "write failed");
  }
  std::filesystem::rename(tmp, file);
}

}  // namespace lgc
