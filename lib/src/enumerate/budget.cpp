#include "lgcheck/enumerate/budget.hpp"

#include <atomic>
#include <charconv>
#include <cmath>
#include <mutex>

#include <fmt/format.h>

namespace lgc {
namespace {

std::mutex g_mutex;
Budget g_budget;
std::atomic<bool> g_limited{false};
// The limits again, for the hot path (charge_enumeration): read without the lock.
std::atomic<std::uint64_t> g_item_limit{0};  // 0: no count limit
std::atomic<double> g_seconds_limit{0};       // 0: no time limit
std::atomic<std::uint64_t> g_items{0};
std::atomic<std::int64_t> g_start_ns{0};

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

Budget parse_budget(std::string_view text) {
  if (text.empty()) throw std::invalid_argument("expected a count (1000000) or a time (30s, 5m, 1h), got nothing");
  const char unit = text.back();
  double scale = 0;
  if (unit == 's') scale = 1;
  else if (unit == 'm') scale = 60;
  else if (unit == 'h') scale = 3600;
  Budget b;
  if (scale > 0) {
    double value = 0;
    const std::string_view number = text.substr(0, text.size() - 1);
    auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
    if (ec != std::errc() || end != number.data() + number.size() || !(value > 0) || !std::isfinite(value))
      throw std::invalid_argument("expected a positive time such as 30s, 5m or 1.5h, got \"" + std::string(text) + "\"");
    b.seconds = value * scale;
    return b;
  }
  std::uint64_t count = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), count);
  if (ec != std::errc() || end != text.data() + text.size() || count == 0)
    throw std::invalid_argument("expected a positive count (1000000) or a time (30s, 5m, 1h), got \"" + std::string(text) + "\"");
  b.items = count;
  return b;
}

std::string describe(const Budget& b) {
  if (b.items) return fmt::format("{} enumerated items", *b.items);
  if (b.seconds) return fmt::format("{:g} s", *b.seconds);
  return "unlimited";
}

void set_enumeration_budget(const Budget& b) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_budget = b;
  g_item_limit = b.items.value_or(0);
  g_seconds_limit = b.seconds.value_or(0);
  g_limited = !b.unlimited();
}

Budget enumeration_budget() {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_budget;
}

BudgetScope::BudgetScope() {
  g_items = 0;
  g_start_ns = now_ns();
}

void charge_enumeration(std::uint64_t items) {
  if (!g_limited.load(std::memory_order_relaxed)) return;
  const std::uint64_t before = g_items.fetch_add(items, std::memory_order_relaxed);
  const std::uint64_t after = before + items;
  const std::uint64_t item_limit = g_item_limit.load(std::memory_order_relaxed);
  if (item_limit && after > item_limit)
    throw BudgetExceeded(fmt::format("the budget of {} was used up", describe(enumeration_budget())));
  const double seconds = g_seconds_limit.load(std::memory_order_relaxed);
  if (seconds > 0 && (before >> 8) != (after >> 8) && static_cast<double>(now_ns() - g_start_ns.load()) * 1e-9 > seconds)
    throw BudgetExceeded(
        fmt::format("the budget of {} was used up ({} items enumerated)", describe(enumeration_budget()), after));
}

}  // namespace lgc
