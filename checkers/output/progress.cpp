#include "output/progress.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <iostream>

namespace lgc {

std::string short_duration(double seconds) {
  if (seconds < 120) return fmt::format("{:.0f} s", seconds);
  if (seconds < 7200) return fmt::format("{:.0f} min", seconds / 60);
  return fmt::format("{:.1f} h", seconds / 3600);
}

Progress::Progress(std::string unit, bool quiet)
    : unit_(std::move(unit)), enabled_(!quiet && isatty(STDERR_FILENO) != 0), start_(Clock::now()), last_(start_) {}

void Progress::update(std::size_t done, std::size_t total, const std::string& label) {
  if (!enabled_) return;
  const Clock::time_point now = Clock::now();
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  if (elapsed < 2 || (shown_ && now - last_ < std::chrono::milliseconds(100))) return;
  last_ = now;
  const double rate = done / elapsed;  // a display, never a result
  const std::string eta = done > 0 && total >= done ? ", ETA " + short_duration((total - done) / rate) : "";
  const std::string count = total > 0 ? fmt::format("{}/{}", done, total) : std::to_string(done);
  std::cerr << fmt::format("\r\033[K[{} {}, {:.2g}/s{}] {}", count, unit_, rate, eta, label) << std::flush;
  shown_ = true;
}

void Progress::clear() {
  if (!shown_) return;
  std::cerr << "\r\033[K" << std::flush;
  shown_ = false;
}

namespace {
ProgressSink g_sink;  // set by a command before its work starts and cleared after; read from the work (threads too)
}  // namespace

void set_progress_sink(ProgressSink sink) { g_sink = std::move(sink); }

void report_progress(std::size_t done, std::size_t total, const std::string& label) {
  if (g_sink) g_sink(done, total, label);
}

ProgressSinkScope::ProgressSinkScope(Progress& progress) {
  set_progress_sink([&progress](std::size_t done, std::size_t total, const std::string& label) {
    progress.update(done, total, label);
  });
}

}  // namespace lgc
