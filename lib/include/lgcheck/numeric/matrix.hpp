#pragma once
// Small dense matrices and vectors, generic over the number type (Rational,
// Interval, Number). Row-major; sizes are checked.
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace lgc {

template <class T>
using Vector = std::vector<T>;

template <class T>
class Matrix {
 public:
  Matrix() = default;
  Matrix(std::size_t rows, std::size_t cols, const T& fill = T()) : rows_(rows), cols_(cols), data_(rows * cols, fill) {}

  std::size_t rows() const { return rows_; }
  std::size_t cols() const { return cols_; }
  T& operator()(std::size_t r, std::size_t c) { return data_[r * cols_ + c]; }
  const T& operator()(std::size_t r, std::size_t c) const { return data_[r * cols_ + c]; }
  Vector<T> row(std::size_t r) const { return Vector<T>(data_.begin() + r * cols_, data_.begin() + (r + 1) * cols_); }

  friend bool operator==(const Matrix& a, const Matrix& b) {
    return a.rows_ == b.rows_ && a.cols_ == b.cols_ && a.data_ == b.data_;
  }

  /// Convert every entry with `f`.
  template <class U, class F>
  Matrix<U> map(F f) const {
    Matrix<U> m(rows_, cols_);
    for (std::size_t r = 0; r < rows_; ++r)
      for (std::size_t c = 0; c < cols_; ++c) m(r, c) = f((*this)(r, c));
    return m;
  }

 private:
  std::size_t rows_ = 0, cols_ = 0;
  std::vector<T> data_;
};

/// True for an entry that is certainly an exact zero (skipped in products).
template <class T>
bool is_exact_zero(const T& x) {
  if constexpr (requires { x.is_exact(); }) {
    return x.is_exact() && x.exact() == 0;
  } else if constexpr (requires { x == 0; }) {
    return x == 0;
  } else {
    return false;
  }
}

inline void require_size(std::size_t got, std::size_t want, const char* what) {
  if (got != want) throw std::invalid_argument(std::string(what) + ": dimension mismatch");
}

/// M·v, with entries of M converted through the result type R.
template <class R, class M, class V>
Vector<R> apply(const Matrix<M>& m, const Vector<V>& v) {
  require_size(v.size(), m.cols(), "apply");
  Vector<R> out(m.rows(), R(0));
  for (std::size_t r = 0; r < m.rows(); ++r) {
    R acc(0);
    for (std::size_t c = 0; c < m.cols(); ++c)
      if (!is_exact_zero(m(r, c))) acc += R(m(r, c)) * v[c];
    out[r] = acc;
  }
  return out;
}

/// uᵀv.
template <class R, class U, class V>
R dot(const Vector<U>& u, const Vector<V>& v) {
  require_size(u.size(), v.size(), "dot");
  R acc(0);
  for (std::size_t k = 0; k < u.size(); ++k) acc += R(u[k]) * v[k];
  return acc;
}

/// Elementwise sum.
template <class T>
Vector<T> add(const Vector<T>& a, const Vector<T>& b) {
  require_size(a.size(), b.size(), "add");
  Vector<T> out(a.size());
  for (std::size_t k = 0; k < a.size(); ++k) out[k] = a[k] + b[k];
  return out;
}

/// Matrix product A·B.
template <class T>
Matrix<T> multiply(const Matrix<T>& a, const Matrix<T>& b) {
  require_size(b.rows(), a.cols(), "multiply");
  Matrix<T> out(a.rows(), b.cols(), T(0));
  for (std::size_t r = 0; r < a.rows(); ++r)
    for (std::size_t k = 0; k < a.cols(); ++k)
      for (std::size_t c = 0; c < b.cols(); ++c) out(r, c) += a(r, k) * b(k, c);
  return out;
}

/// Transpose.
template <class T>
Matrix<T> transpose(const Matrix<T>& a) {
  Matrix<T> out(a.cols(), a.rows());
  for (std::size_t r = 0; r < a.rows(); ++r)
    for (std::size_t c = 0; c < a.cols(); ++c) out(c, r) = a(r, c);
  return out;
}

}  // namespace lgc
