#pragma once
// A budget on enumerations: a count of enumerated items (strings,
// statistics, prefix-tree nodes) and/or a wall-clock time. The enumerators
// charge every item they visit; past the budget they throw BudgetExceeded,
// which the claim runner turns into an UNDECIDED verdict that prints the
// budget — a check stops instead of running away. Process-wide, like the
// thread count; a BudgetScope restarts the count and the clock (one per
// claim).
#include <chrono>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace lgc {

struct Budget {
  std::optional<std::uint64_t> items;   ///< enumerated items
  std::optional<double> seconds;        ///< wall-clock time
  bool unlimited() const { return !items && !seconds; }
};

/// "1000000" (items), "30s", "5m", "1.5h" (time); throws std::invalid_argument.
Budget parse_budget(std::string_view text);
/// "1000000 enumerated items", "30 s".
std::string describe(const Budget& b);

class BudgetExceeded : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

void set_enumeration_budget(const Budget& b);
Budget enumeration_budget();

/// Restarts the count and the clock for its lifetime's work.
class BudgetScope {
 public:
  BudgetScope();
  BudgetScope(const BudgetScope&) = delete;
  BudgetScope& operator=(const BudgetScope&) = delete;
};

/// Counts `items` enumerated items; throws BudgetExceeded past the budget.
/// Thread-safe: each thread adds its items to the shared count once it holds
/// 256 or more and then looks at the clock (one charge at a time once a count
/// limit is within 2^17, so that one thread stops exactly at it).
void charge_enumeration(std::uint64_t items = 1);

/// Adds the calling thread's items not yet counted and looks at the limits
/// (throws BudgetExceeded past them): a worker calls it when its work is done
/// (run_shards, and run_in_order after each item), so a budget its last items
/// passed stops the run whatever the thread count.
void settle_enumeration_budget();

}  // namespace lgc
