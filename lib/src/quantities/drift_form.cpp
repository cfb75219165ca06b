#include "lgcheck/quantities/drift_form.hpp"

#include <optional>
#include <stdexcept>

namespace lgc {
namespace {

/// What x shows at one kept position with a bulk: its window, μ̂ and integrands.
struct KeptPoint {
  std::vector<std::size_t> window;
  std::vector<Rational> mu;
  IVector p;
};

/// x's points at the kept positions i_j whose z-position j has a bulk
/// (j > τ + 1; then i_j >= j has one too), in order.
std::vector<KeptPoint> kept_points(const StatisticAverages& stats, const Tokens& x,
                                   const std::vector<std::uint64_t>& kept) {
  const std::size_t first = stats.layer().model().locality + 1;  // z-positions 1..τ+1 have no bulk
  std::vector<KeptPoint> out;
  std::size_t next = first;  // index into kept (0-based) of the next wanted position
  stats.layer().for_each_position(x, [&](const SoftmaxFirstLayer::Point& point) {
    if (next >= kept.size() || point.i != kept[next]) return;
    std::vector<Rational> mu = point.histogram();
    IVector p = stats.integrands().at(point.window, mu);
    out.push_back({point.window, std::move(mu), std::move(p)});
    ++next;
  });
  return out;
}

/// ‖a − b‖₁, exactly.
Rational l1_distance(const std::vector<Rational>& a, const std::vector<Rational>& b) {
  Rational d = 0;
  for (std::size_t c = 0; c < a.size(); ++c) d += abs(a[c] - b[c]);
  return d;
}

}  // namespace

DriftForm drift_form(const StatisticAverages& stats, const Tokens& x, const std::vector<std::uint64_t>& kept,
                     const Rational& G, const Rational& L) {
  const unsigned bits = stats.layer().bits();
  const std::vector<KeptPoint> at_x = kept_points(stats, x, kept);
  Tokens z;
  for (std::uint64_t i : kept) z.push_back(x.at(i - 1));
  if (at_x.empty()) throw std::invalid_argument("drift_form: z has no position with a bulk");
  DriftForm out;
  out.positions = at_x.size();
  out.broken = out.informative = 0;
  out.lipschitz_ratio = out.range_ratio = 0;
  out.premises_fail = false;
  out.drift = Interval::zero(bits);
  IVector sum_z, sum_x;  // Σ_j p_k(z at j), Σ_j p_k(x at i_j)
  std::size_t j = 0;
  stats.layer().for_each_position(z, [&](const SoftmaxFirstLayer::Point& point) {
    if (point.bulk() == 0) return;
    const KeptPoint& ref = at_x.at(j++);
    const std::vector<Rational> mu = point.histogram();
    IVector pz = stats.integrands().at(point.window, mu);
    if (sum_z.empty()) sum_z = pz, sum_x = ref.p;
    else
      for (std::size_t k = 0; k < pz.size(); ++k) sum_z[k] += pz[k], sum_x[k] += ref.p[k];
    const bool same_window = point.window == ref.window;
    const Rational d = same_window ? l1_distance(mu, ref.mu) : Rational(0);
    const Rational scale = same_window ? Rational(L * d) : Rational(2 * G);
    Rational& ratio = same_window ? out.lipschitz_ratio : out.range_ratio;
    for (std::size_t k = 0; k < pz.size(); ++k) {
      const Interval change = abs(pz[k] - ref.p[k]);
      if (scale > 0) ratio = std::max(ratio, Rational(change.upper() / scale));
      out.premises_fail = out.premises_fail || change.lower() > scale;
    }
    if (same_window && scale < 2 * G) ++out.informative;
    if (!same_window) ++out.broken;
    else out.drift += Interval(d, bits);
  });
  if (j != at_x.size()) throw std::logic_error("drift_form: z and x's kept positions do not line up");
  const Interval nb(Rational(Integer(out.positions)), bits);
  out.drift = out.drift / nb;
  const Interval terms = Interval(2 * G * Rational(Integer(out.broken), Integer(out.positions)), bits) +
                         Interval(L, bits) * out.drift;
  const IVector& avg_x = stats.averages();
  out.holds = true;
  out.fails = false;
  out.ratio = 0;
  Interval worst_error = Interval::zero(bits);
  std::optional<Rational> worst_gap;  // upper(E_k − rhs_k), to pick the integrand that comes closest
  for (std::size_t k = 0; k < avg_x.size(); ++k) {
    const Interval e = abs(sum_z[k] / nb - avg_x[k]);
    const Interval sampling = abs(sum_x[k] / nb - avg_x[k]);  // S_k
    const Interval rhs = sampling + terms;
    if (e.upper() > worst_error.upper()) worst_error = e;
    const Rational gap = (e - rhs).upper();
    if (!worst_gap || gap > *worst_gap) worst_gap = gap, out.bound = rhs, out.closest_error = e;
    out.holds = out.holds && e.upper() <= rhs.lower();
    out.fails = out.fails || e.lower() > rhs.upper();
    const Rational excess = (e - sampling).upper();
    if (terms.lower() > 0 && excess > 0) out.ratio = std::max(out.ratio, Rational(excess / terms.lower()));
  }
  // The integrands' own Lipschitz bound in μ̂ is exactly 0 (stats.bounds(), not the L given, which a mutation may
  // zero): p does not depend on μ̂, so p(z at j) = p(x at i_j) exactly wherever the windows agree. With no broken
  // window every E_k equals S_k, which two enclosures of the same sums cannot show: the form holds with equality.
  if (stats.bounds().L == 0 && out.broken == 0) out.holds = true, out.fails = false;
  out.error = Number(worst_error);
  return out;
}

}  // namespace lgc
