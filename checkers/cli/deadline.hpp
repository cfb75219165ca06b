#pragma once
// The wall-clock backstop of --budget for the commands whose work is not all
// counted by the enumerators (bound, average, simulate, table, plot, gen):
// when the time budget runs out before the command finishes, the process
// prints why on stderr and exits 3 (undecided) instead of running on. Only
// the lgcheck executable arms it (enable_hard_deadline from main); run
// in-process (tests, the command-line fuzzer) only the enumerators' own
// budget checks apply.
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace lgc::cli {

/// Lets Deadline end the process (called once, by main).
void enable_hard_deadline();

class Deadline {
 public:
  /// Arms the backstop for `command` when enabled and --budget gave a time.
  explicit Deadline(const std::string& command);
  ~Deadline();
  Deadline(const Deadline&) = delete;
  Deadline& operator=(const Deadline&) = delete;

 private:
  std::mutex mutex_;
  std::condition_variable finished_;
  bool done_ = false;
  std::thread watchdog_;
};

}  // namespace lgc::cli
