#pragma once
// A rational matrix enclosed in FastInterval and stored by its nonzero
// entries, for the certified double filters' matrix-vector products: zero
// entries cost nothing, entries whose enclosure is one double multiply with
// two products instead of four, and a zero input or a zero partial sum is
// exact (nothing is widened where nothing was rounded).
#include "lgcheck/numeric/fast_interval.hpp"
#include "lgcheck/numeric/matrix.hpp"
#include "lgcheck/numeric/rational.hpp"

#include <cstddef>
#include <vector>

namespace lgc {

/// x·w for a double w that is exactly the weight: 1 and −1 exactly, else two products rounded outward.
inline FastInterval times_point(FastInterval x, double w) {
  if (w == 1) return x;
  if (w == -1) return {-x.hi, -x.lo};
  const double a = x.lo * w, b = x.hi * w;
  return {next_down(std::min(a, b)), next_up(std::max(a, b))};
}

/// a + b, exact when a is the exact 0 (no rounding happened, so no widening).
inline FastInterval add_exact_zero_aware(FastInterval a, FastInterval b) {
  return is_exact_zero(a) ? b : is_exact_zero(b) ? a : a + b;
}

class FastSparseMatrix {
 public:
  FastSparseMatrix() = default;
  /// Encloses each nonzero entry of m (a point when the rational is a double).
  explicit FastSparseMatrix(const Matrix<Rational>& m) : rows_(m.rows()), cols_(m.cols()) {
    for (std::size_t r = 0; r < m.rows(); ++r)
      for (std::size_t c = 0; c < m.cols(); ++c)
        if (m(r, c) != 0) {
          const FastInterval w = FastInterval::enclosing(m(r, c));
          entries_.push_back({r, c, w, w.lo == w.hi});
        }
  }
  std::size_t rows() const { return rows_; }
  std::size_t cols() const { return cols_; }

  /// out = M·v, enclosed: every exact product M(r, c)·v_c lies in its term, every exact sum in out_r.
  void times(const std::vector<FastInterval>& v, std::vector<FastInterval>& out) const {
    out.assign(rows_, FastInterval{0, 0});
    for (const Entry& e : entries_) {
      const FastInterval& x = v[e.col];
      if (is_exact_zero(x)) continue;  // the exact product is 0
      out[e.row] = add_exact_zero_aware(out[e.row], e.point ? times_point(x, e.w.lo) : e.w * x);
    }
  }

 private:
  struct Entry {
    std::size_t row, col;
    FastInterval w;
    bool point;  ///< w.lo == w.hi: the rational is that double exactly
  };
  std::size_t rows_ = 0, cols_ = 0;
  std::vector<Entry> entries_;
};

}  // namespace lgc
