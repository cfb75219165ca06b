// Exhaustive domains re-derived by the kernel (docs/kernel.md "Enumerations").
#include "lgcheck/kernel/enumeration.hpp"

#include "lgcheck/kernel/witness.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <functional>
#include <random>

namespace lgc::kernel {

std::optional<Domain> parse_domain(const std::string& text) {
  Domain d;
  unsigned long a = 0, b = 0, c = 0;
  int end = -1;  // where the matched form ends: the rest must be nothing, or T4.1.lg's note on its curve
  const char* t = text.c_str();
  if (std::sscanf(t, "every statistic of length %7lu..%7lu%n", &a, &b, &end) == 2) d.lo = a, d.hi = b;
  else if (std::sscanf(t, "every statistic of length <= %7lu%n", &b, &end) == 1) d.hi = b;
  else if (std::sscanf(t, "every statistic of each length T in [%7lu, %7lu] with at most %9lu statistics%n", &a, &b,
                       &c, &end) == 3)
    d.lo = a, d.hi = b, d.cap = c;
  else if (std::sscanf(t, "query positions %7lu..%7lu of every string of length %3lu%n", &a, &b, &c, &end) == 3)
    d = {Domain::Kind::StringPositions, c, c, a, b, std::nullopt};
  else if (std::sscanf(t, "positions i >= %7lu of every input of length %3lu%n", &a, &c, &end) == 2)
    d = {Domain::Kind::StringPositions, c, c, a, c, std::nullopt};
  else return std::nullopt;
  const std::string rest = end < 0 ? "?" : text.substr(static_cast<std::size_t>(end));
  if (!rest.empty() && rest != " (the distance curve D(n))") return std::nullopt;
  const bool empty_positions = d.kind == Domain::Kind::StringPositions && d.first > d.last;
  return d.lo == 0 || d.lo > d.hi || d.hi > 100000 || empty_positions ? std::nullopt : std::optional<Domain>(d);
}

namespace {

Integer windows(const Model& m, std::uint64_t length) {
  return pow(Integer(static_cast<unsigned long>(m.alphabet_size())), static_cast<unsigned long>(length));
}

/// The bulk count vectors of length T: Π_r C(m_r + S − 1, S − 1), multisets of m_r tokens per residue.
Integer bulk_count(const Model& m, std::uint64_t T) {
  const std::uint64_t B = T - std::min<std::uint64_t>(T, m.locality + 1);
  Integer n = 1;
  for (std::size_t r = 0; r < m.period; ++r) {
    const Integer mr(residue_count(B, r, m.period));
    Integer multisets = 1;
    for (std::size_t i = 1; i < m.alphabet_size(); ++i) multisets = multisets * (mr + i) / i;
    n *= multisets;
  }
  return n;
}

Tokens random_tokens(const Model& m, std::uint64_t T, std::mt19937_64& rng) {
  Tokens x(T);
  for (int& s : x) s = static_cast<int>(rng() % m.alphabet_size());
  return x;
}

/// The lengths the domain holds (a capped length with more statistics is not in it).
std::vector<std::uint64_t> lengths(const Domain& d, const Model& m) {
  std::vector<std::uint64_t> out;
  for (std::uint64_t T = d.lo; T <= d.hi; ++T)
    if (!d.cap || statistic_count(m, T) <= Integer(*d.cap)) out.push_back(T);
  return out;
}

}  // namespace

Integer statistic_count(const Model& m, std::uint64_t T) {
  return windows(m, std::min<std::uint64_t>(T, m.locality + 1)) * bulk_count(m, T);
}

PairCount norm_pair_count(const Model& m, std::uint64_t n) {
  // A window shorter than τ + 1 fixes T: its group is one statistic. A full window's group (w, ρ) holds the
  // bulk count vectors of every T in [τ+1, n] with T ≡ ρ, the same number for every w.
  std::vector<Integer> members(m.period, Integer(0)), pairs(m.period);
  for (std::uint64_t T = m.locality + 1; T <= n; ++T) members[T % m.period] += bulk_count(m, T);
  const Integer full = windows(m, m.locality + 1);  // the full windows w, one group (w, ρ) each
  PairCount c{0, 0, 0, 1};
  for (std::size_t r = 0; r < m.period; ++r) {
    pairs[r] = members[r] * (members[r] - 1) / 2;
    c.total += full * pairs[r];
    if (pairs[r] > 0) c.groups += full;
  }
  c.stride = c.total <= kNormPairCap ? Integer(1) : Integer((c.total + kNormPairCap - 1) / kNormPairCap);
  for (std::size_t r = 0; r < m.period; ++r) c.compared += full * ((pairs[r] + c.stride - 1) / c.stride);
  return c;
}

std::vector<std::pair<Tokens, Tokens>> sample_norm_pairs(const Model& m, std::uint64_t n) {
  std::vector<std::pair<Tokens, Tokens>> out;
  const std::uint64_t first = m.locality + 1;
  std::mt19937_64 rng(kSampleSeed);
  for (std::size_t k = 0; k < kSamples && n >= first; ++k) {
    const std::uint64_t Tx = first + rng() % (n - first + 1), below = (Tx - first) / m.period;
    const std::uint64_t shift = rng() % (below + (n - Tx) / m.period + 1);  // Tz = Tx ± shift·Δ in [first, n]
    const std::uint64_t Tz = shift <= below ? Tx - shift * m.period : Tx + (shift - below) * m.period;
    Tokens x = random_tokens(m, Tx, rng), z = random_tokens(m, Tz, rng);
    std::copy(x.end() - static_cast<long>(first), x.end(), z.end() - static_cast<long>(first));
    out.emplace_back(std::move(x), std::move(z));
  }
  return out;
}

Integer domain_count(const Domain& d, const Model& m) {
  if (d.kind == Domain::Kind::StringPositions) {
    const std::uint64_t positions = d.last >= d.first ? d.last - std::max<std::uint64_t>(d.first, 1) + 1 : 0;
    return windows(m, d.hi) * positions;
  }
  Integer n = 0;
  for (std::uint64_t T : lengths(d, m)) n += statistic_count(m, T);
  return n;
}

void Digest::add(const std::vector<std::uint64_t>& words) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (const std::uint64_t w : words)
    for (int bit = 0; bit < 64; bit += 8) h = (h ^ ((w >> bit) & 0xffu)) * 0x100000001b3ull;
  h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
  h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
  ++items;
  sum += h ^ (h >> 31);
}

std::string Digest::text() const {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(sum));
  return std::to_string(items) + " items, digest " + hex;
}

namespace {

/// Every token sequence of length t (odometer), each passed as the tail of `words` from index `at`.
void for_each_tokens(std::size_t S, std::size_t t, std::vector<std::uint64_t>& words, std::size_t at,
                     const std::function<void()>& visit) {
  std::fill(words.begin() + static_cast<long>(at), words.begin() + static_cast<long>(at + t), 0);
  for (;;) {
    visit();
    std::size_t k = at + t;
    while (k > at && ++words[k - 1] == S) words[--k] = 0;
    if (k == at) return;
  }
}

/// Every bulk: for residue r..Δ−1, the counts of the S tokens summing to m_r, written at words[base + s·Δ + r].
void for_each_bulk(const Model& m, std::uint64_t B, std::size_t r, std::size_t s, std::uint64_t left,
                   std::vector<std::uint64_t>& words, std::size_t base, const std::function<void()>& visit) {
  const std::size_t S = m.alphabet_size(), D = m.period;
  if (r == D) return visit();
  if (s + 1 == S) {
    words[base + s * D + r] = left;
    return for_each_bulk(m, B, r + 1, 0, r + 1 < D ? residue_count(B, r + 1, D) : 0, words, base, visit);
  }
  for (std::uint64_t c = 0; c <= left; ++c) {
    words[base + s * D + r] = c;
    for_each_bulk(m, B, r, s + 1, left - c, words, base, visit);
  }
}

}  // namespace

std::optional<Digest> domain_digest(const Domain& d, const Model& m) {
  // Items (statistics, or strings for a domain of strings), and their words, within the limits.
  const Integer items = d.kind == Domain::Kind::StringPositions ? windows(m, d.hi) : domain_count(d, m);
  const std::uint64_t words = 1 + std::max<std::uint64_t>(d.hi, m.locality + 1 + m.alphabet_size() * m.period);
  if (items > Integer(kMaxDigestItems) || items * words > Integer(kMaxDigestItems) * 64) return std::nullopt;
  Digest digest;
  const std::size_t S = m.alphabet_size();
  if (d.kind == Domain::Kind::StringPositions) {
    std::vector<std::uint64_t> words(d.hi + 1, d.hi);
    for_each_tokens(S, d.hi, words, 1, [&] { digest.add(words); });
    return digest;
  }
  for (const std::uint64_t T : lengths(d, m)) {
    const std::size_t w = static_cast<std::size_t>(std::min<std::uint64_t>(T, m.locality + 1));
    const std::uint64_t B = T - w;
    std::vector<std::uint64_t> words(1 + w + S * m.period, T);
    for_each_tokens(S, w, words, 1, [&] {
      for_each_bulk(m, B, 0, 0, residue_count(B, 0, m.period), words, 1 + w, [&] { digest.add(words); });
    });
  }
  return digest;
}

void for_each_statistic(const Model& m, std::uint64_t T, const std::function<void(const Statistic&)>& visit) {
  const std::size_t w = static_cast<std::size_t>(std::min<std::uint64_t>(T, m.locality + 1));
  std::vector<std::uint64_t> words(1 + w + m.alphabet_size() * m.period, T);
  for_each_tokens(m.alphabet_size(), w, words, 1, [&] {
    for_each_bulk(m, T - w, 0, 0, residue_count(T - w, 0, m.period), words, 1 + w, [&] {
      Statistic s{T, Tokens(words.begin() + 1, words.begin() + 1 + static_cast<long>(w)),
                  std::vector<std::uint64_t>(words.begin() + 1 + static_cast<long>(w), words.end())};
      visit(s);
    });
  });
}

std::optional<Digest> norm_pair_digest(const Model& m, std::size_t models, std::uint64_t n) {
  const PairCount c = norm_pair_count(m, n);
  if (c.total == 0) return Digest{};  // no pair (n <= τ + 1): nothing to walk, whatever the windows
  const std::size_t S = m.alphabet_size(), w = m.locality + 1, K = S * m.period;
  const Integer hashed = Integer(static_cast<unsigned long>(3 + 2 * (w + K))) * c.compared * models;  // words
  if (c.total * models > Integer(kMaxDigestItems) * 4 || hashed > Integer(kMaxDigestItems) * 64) return std::nullopt;
  std::vector<std::vector<std::vector<std::uint64_t>>> bulks(m.period);  // per residue: (T, counts), sorted
  for (std::uint64_t T = w; T <= n; ++T) {
    std::vector<std::uint64_t> words(1 + K, T);
    auto& group = bulks[T % m.period];
    for_each_bulk(m, T - w, 0, 0, residue_count(T - w, 0, m.period), words, 1, [&] { group.push_back(words); });
  }
  for (auto& group : bulks) std::sort(group.begin(), group.end());
  const std::uint64_t stride = static_cast<std::uint64_t>(c.stride);
  Digest digest;
  std::vector<std::uint64_t> words(1 + 2 * (1 + w + K));  // model, then (T, window, counts) of x and of z
  for (std::size_t model = 0; model < models; ++model) {
    words[0] = model;
    for_each_tokens(S, w, words, 2, [&] {
      std::copy_n(words.begin() + 2, w, words.begin() + static_cast<long>(3 + w + K));
      for (const auto& group : bulks) {
        std::uint64_t index = 0;
        for (std::size_t i = 0; i < group.size(); ++i)
          for (std::size_t j = i + 1; j < group.size(); ++j)
            if (index++ % stride == 0) {
              words[1] = group[i][0], words[2 + w + K] = group[j][0];
              std::copy(group[i].begin() + 1, group[i].end(), words.begin() + static_cast<long>(2 + w));
              std::copy(group[j].begin() + 1, group[j].end(), words.begin() + static_cast<long>(3 + 2 * w + K));
              digest.add(words);
            }
      }
    });
  }
  return digest;
}

std::vector<Tokens> sample_strings(const Domain& d, const Model& m) {
  const std::vector<std::uint64_t> ls = lengths(d, m);
  std::vector<Tokens> out;
  std::mt19937_64 rng(kSampleSeed);  // the engine's output is fixed by the standard; no distribution object
  for (std::size_t k = 0; k < kSamples && !ls.empty(); ++k) {
    const std::uint64_t T = ls[rng() % ls.size()];
    out.push_back(random_tokens(m, T, rng));
  }
  return out;
}

/// The number N of "N constructed hard inputs" in a D5.4.kgram domain text (0 when it names none).
unsigned long hard_input_count(const std::string& domain) {
  const std::size_t at = domain.find(" constructed hard inputs");
  if (at == std::string::npos || at == 0) return 0;
  const std::size_t space = domain.rfind(' ', at - 1), from = space == std::string::npos ? 0 : space + 1;
  unsigned long n = 0;
  const auto [end, error] = std::from_chars(domain.data() + from, domain.data() + at, n);
  return error == std::errc() && end == domain.data() + at ? n : 0;
}

}  // namespace lgc::kernel
