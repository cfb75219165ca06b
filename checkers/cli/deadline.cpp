#include "deadline.hpp"

#include "lgcheck/enumerate/budget.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>

namespace lgc::cli {
namespace {

std::atomic<bool> g_enabled{false};

}  // namespace

void enable_hard_deadline() { g_enabled = true; }

Deadline::Deadline(const std::string& command) {
  const Budget budget = enumeration_budget();
  if (!g_enabled || !budget.seconds) return;
  const auto limit = std::chrono::duration<double>(*budget.seconds);
  // Formatted now: the watchdog only writes and exits.
  const std::string message = fmt::format(
      "lgcheck: undecided: the time budget of {} ran out before {} finished; nothing more was computed "
      "(raise --budget to decide)\n",
      describe(budget), command);
  watchdog_ = std::thread([this, limit, message] {
    std::unique_lock<std::mutex> lock(mutex_);
    if (finished_.wait_for(lock, limit, [this] { return done_; })) return;
    std::fflush(stdout);  // what the command printed so far stays printed
    [[maybe_unused]] const auto written = ::write(STDERR_FILENO, message.data(), message.size());
    ::_exit(3);
  });
}

Deadline::~Deadline() {
  if (!watchdog_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    done_ = true;
  }
  finished_.notify_all();
  watchdog_.join();
}

}  // namespace lgc::cli
