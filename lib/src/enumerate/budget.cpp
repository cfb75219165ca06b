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
// Each thread adds its items to g_items once it holds kBatch or more, one charge
// at a time once an item limit is less than kExactBelow away (g_exact), and all
// it holds when its share of a parallel run ends (settle_enumeration_budget): at
// most 256 threads hold fewer than kBatch uncounted items each, so a count limit
// is met exactly by a single thread and to within the other threads' uncounted
// items by several.
constexpr std::uint64_t kBatch = 256;
constexpr std::uint64_t kExactBelow = std::uint64_t{1} << 17;
std::atomic<bool> g_exact{false};
std::atomic<std::uint64_t> g_generation{0};  // one per BudgetScope
// Set when a thread ends with items not yet added (a short-lived worker may
// count fewer than kBatch): the next charge in any thread looks at the limits.
std::atomic<bool> g_added_at_exit{false};

/// A thread's items not yet added to g_items; added when the thread ends (a worker settles them before:
/// settle_enumeration_budget; this is for one that ends by an exception).
struct PendingItems {
  std::uint64_t items = 0;
  std::uint64_t generation = 0;
  ~PendingItems() {
    if (items == 0 || generation != g_generation.load()) return;
    g_items.fetch_add(items);
    g_added_at_exit.store(true);
  }
};
thread_local PendingItems t_pending;

/// Whether a count of `items` is within kExactBelow of the item limit (items are then charged one by one).
bool near_item_limit(std::uint64_t items) {
  const std::uint64_t limit = g_item_limit.load(std::memory_order_relaxed);
  return limit != 0 && (items >= limit || limit - items < kExactBelow);
}

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
  g_exact = near_item_limit(g_items);
}

Budget enumeration_budget() {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_budget;
}

BudgetScope::BudgetScope() {
  g_items = 0;
  g_exact = near_item_limit(0);
  g_generation.fetch_add(1);
  g_start_ns = now_ns();
}

namespace {

/// The budget's limits against the count `after` (a thread's batch just added; the clock is read once per batch).
void check_budget(std::uint64_t after) {
  const std::uint64_t item_limit = g_item_limit.load(std::memory_order_relaxed);
  if (item_limit && after > item_limit)
    throw BudgetExceeded(fmt::format("the budget of {} was used up", describe(enumeration_budget())));
  if (near_item_limit(after)) g_exact.store(true, std::memory_order_relaxed);
  const double seconds = g_seconds_limit.load(std::memory_order_relaxed);
  if (seconds > 0 && static_cast<double>(now_ns() - g_start_ns.load()) * 1e-9 > seconds)
    throw BudgetExceeded(
        fmt::format("the budget of {} was used up ({} items enumerated)", describe(enumeration_budget()), after));
}

/// This thread's pending items, those of an earlier BudgetScope discarded.
PendingItems& pending_items() {
  const std::uint64_t current = g_generation.load(std::memory_order_relaxed);
  if (t_pending.generation != current) {  // a new BudgetScope: what this thread counted before is not its work
    t_pending.generation = current;
    t_pending.items = 0;
  }
  return t_pending;
}

/// Adds this thread's pending items to the shared count and looks at the limits.
void flush_pending(PendingItems& pending) {
  if (g_added_at_exit.load(std::memory_order_relaxed)) g_added_at_exit.store(false, std::memory_order_relaxed);
  const std::uint64_t charged = pending.items;
  pending.items = 0;
  const std::uint64_t before = g_items.fetch_add(charged, std::memory_order_relaxed);
  check_budget(before + charged);
}

}  // namespace

void charge_enumeration(std::uint64_t items) {
  if (!g_limited.load(std::memory_order_relaxed)) return;
  // Counted in this thread first, added to the shared count in batches:
  // one atomic addition per item made two threads' enumerations contend for
  // its cache line (half the time of a long threshold run under --budget).
  PendingItems& pending = pending_items();
  pending.items += items;
  if (pending.items < kBatch && !g_exact.load(std::memory_order_relaxed) &&
      !g_added_at_exit.load(std::memory_order_relaxed))
    return;
  flush_pending(pending);
}

void settle_enumeration_budget() {
  if (!g_limited.load(std::memory_order_relaxed)) return;
  flush_pending(pending_items());
}

}  // namespace lgc
