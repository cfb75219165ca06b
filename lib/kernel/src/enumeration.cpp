// Exhaustive domains re-derived by the kernel (docs/kernel.md "Enumerations").
#include "lgcheck/kernel/enumeration.hpp"

#include "lgcheck/kernel/witness.hpp"

#include <cstdio>
#include <random>

namespace lgc::kernel {

std::optional<Domain> parse_domain(const std::string& text) {
  Domain d;
  unsigned long a = 0, b = 0, c = 0;
  const char* t = text.c_str();
  if (std::sscanf(t, "every statistic of length %7lu..%7lu", &a, &b) == 2) d.lo = a, d.hi = b;
  else if (std::sscanf(t, "every statistic of length <= %7lu", &b) == 1) d.hi = b;
  else if (std::sscanf(t, "every statistic of each length T in [%7lu, %7lu] with at most %9lu statistics", &a, &b, &c) == 3)
    d.lo = a, d.hi = b, d.cap = c;
  else if (std::sscanf(t, "query positions %7lu..%7lu of every string of length %3lu", &a, &b, &c) == 3)
    d = {Domain::Kind::StringPositions, c, c, a, b, std::nullopt};
  else if (std::sscanf(t, "positions i >= %7lu of every input of length %3lu", &a, &c) == 2)
    d = {Domain::Kind::StringPositions, c, c, a, c, std::nullopt};
  else return std::nullopt;
  return d.lo == 0 || d.lo > d.hi || d.hi > 100000 ? std::nullopt : std::optional<Domain>(d);
}

Integer statistic_count(const Model& m, std::uint64_t T) {
  const std::uint64_t window = std::min<std::uint64_t>(T, m.locality + 1), B = T - window;
  Integer n = pow(Integer(static_cast<unsigned long>(m.alphabet_size())), static_cast<unsigned long>(window));
  for (std::size_t r = 0; r < m.period; ++r) {  // multisets of m_r tokens: C(m_r + S − 1, S − 1)
    const Integer mr(residue_count(B, r, m.period));
    Integer multisets = 1;
    for (std::size_t i = 1; i < m.alphabet_size(); ++i) multisets = multisets * (mr + i) / i;
    n *= multisets;
  }
  return n;
}

namespace {

/// The lengths the domain holds (a capped length with more statistics is not in it).
std::vector<std::uint64_t> lengths(const Domain& d, const Model& m) {
  std::vector<std::uint64_t> out;
  for (std::uint64_t T = d.lo; T <= d.hi; ++T)
    if (!d.cap || statistic_count(m, T) <= Integer(*d.cap)) out.push_back(T);
  return out;
}

}  // namespace

Integer domain_count(const Domain& d, const Model& m) {
  if (d.kind == Domain::Kind::StringPositions) {
    const std::uint64_t positions = d.last >= d.first ? d.last - std::max<std::uint64_t>(d.first, 1) + 1 : 0;
    return pow(Integer(static_cast<unsigned long>(m.alphabet_size())), static_cast<unsigned long>(d.hi)) * positions;
  }
  Integer n = 0;
  for (std::uint64_t T : lengths(d, m)) n += statistic_count(m, T);
  return n;
}

std::vector<Tokens> sample_strings(const Domain& d, const Model& m) {
  const std::vector<std::uint64_t> ls = lengths(d, m);
  std::vector<Tokens> out;
  std::mt19937_64 rng(kSampleSeed);  // the engine's output is fixed by the standard; no distribution object
  for (std::size_t k = 0; k < kSamples && !ls.empty(); ++k) {
    Tokens x(ls[rng() % ls.size()]);
    for (int& s : x) s = static_cast<int>(rng() % m.alphabet_size());
    out.push_back(std::move(x));
  }
  return out;
}

}  // namespace lgc::kernel
