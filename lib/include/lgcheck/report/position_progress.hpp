#pragma once
// Where a long pass over the positions of one input (the linear-time softmax
// evaluation of a 10⁷-token x) says how far it is: nowhere unless the calling
// thread set an observer for the scope of its call. A command that draws a
// progress line sets one; the claim runner's worker threads never do, so a
// pass inside a check reports to no one.
#include <cstdint>
#include <functional>

namespace lgc {

using PositionObserver = std::function<void(std::uint64_t done, std::uint64_t total)>;

/// Sets this thread's observer for its lifetime (the previous one after).
class PositionObserverScope {
 public:
  explicit PositionObserverScope(PositionObserver observer);
  ~PositionObserverScope();
  PositionObserverScope(const PositionObserverScope&) = delete;
  PositionObserverScope& operator=(const PositionObserverScope&) = delete;

 private:
  PositionObserver previous_;
};

/// Position `done` of `total` is reached. Passes call it every 2^16
/// positions; without an observer it costs one test of a thread-local.
void report_positions(std::uint64_t done, std::uint64_t total);

}  // namespace lgc
