#include "lgcheck/report/position_progress.hpp"

namespace lgc {
namespace {
thread_local PositionObserver t_observer;
}  // namespace

PositionObserverScope::PositionObserverScope(PositionObserver observer) : previous_(std::move(t_observer)) {
  t_observer = std::move(observer);
}

PositionObserverScope::~PositionObserverScope() { t_observer = std::move(previous_); }

void report_positions(std::uint64_t done, std::uint64_t total) {
  if (t_observer) t_observer(done, total);
}

}  // namespace lgc
