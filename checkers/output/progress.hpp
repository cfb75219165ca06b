#pragma once
// A progress line on stderr for a long run: "[12/180 claims, 3.1/s, ETA 40 s]
// label". Shown only to a person watching — stderr is a terminal, --quiet
// was not given — and only once the run has lasted 2 s; redrawn at most ten
// times a second and cleared before anything else is printed.
#include <chrono>
#include <cstddef>
#include <functional>
#include <string>

namespace lgc {

class Progress {
 public:
  Progress(std::string unit, bool quiet);
  ~Progress() { clear(); }
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  /// `done` of `total` items are finished; `label` names the one under way. A total of 0 means unknown: the line
  /// shows the count and the rate, no ETA.
  void update(std::size_t done, std::size_t total, const std::string& label);
  /// Erases the line (before a row goes to stdout, and at the end).
  void clear();

 private:
  using Clock = std::chrono::steady_clock;
  std::string unit_;
  bool enabled_;
  bool shown_ = false;
  Clock::time_point start_, last_;
};

/// "40 s", "3 min", "2.1 h".
std::string short_duration(double seconds);

/// Where a long computation inside the checkers (a table that runs every
/// bundled case) reports `done` of `total`: nowhere unless a command set a
/// sink (the table command sets one that draws a Progress line).
using ProgressSink = std::function<void(std::size_t done, std::size_t total, const std::string& label)>;
void set_progress_sink(ProgressSink sink);
void report_progress(std::size_t done, std::size_t total, const std::string& label);

/// For its lifetime, the checkers' reports draw `progress` (the sink is unset on every way out).
class ProgressSinkScope {
 public:
  explicit ProgressSinkScope(Progress& progress);
  ~ProgressSinkScope() { set_progress_sink({}); }
  ProgressSinkScope(const ProgressSinkScope&) = delete;
  ProgressSinkScope& operator=(const ProgressSinkScope&) = delete;
};

}  // namespace lgc
