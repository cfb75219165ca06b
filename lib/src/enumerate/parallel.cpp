#include "lgcheck/enumerate/parallel.hpp"

#include "lgcheck/enumerate/budget.hpp"

#include <mpfr.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <mutex>
#include <stdexcept>
#include <system_error>

namespace lgc {
namespace {

std::atomic<unsigned> g_threads{0};
// Within run_in_order's work: this thread's share of the threads (0: the whole count).
thread_local unsigned t_share = 0;

std::uint64_t parse_count(std::string_view text, const char* what) {
  std::uint64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty())
    throw std::invalid_argument(std::string("expected i/n with integers i and n, got a bad ") + what);
  return v;
}

}  // namespace

Shard parse_shard(std::string_view text) {
  const auto slash = text.find('/');
  if (slash == std::string_view::npos) throw std::invalid_argument("expected i/n (e.g. 0/2), got \"" + std::string(text) + "\"");
  Shard s{parse_count(text.substr(0, slash), "i"), parse_count(text.substr(slash + 1), "n")};
  if (s.count == 0 || s.index >= s.count)
    throw std::invalid_argument("expected 0 <= i < n in i/n, got \"" + std::string(text) + "\"");
  return s;
}

unsigned enumeration_threads() {
  if (t_share) return t_share;
  const unsigned t = g_threads.load();
  if (t) return t;
  const unsigned cores = std::thread::hardware_concurrency();
  return cores ? cores : 1;
}

void set_enumeration_threads(unsigned threads) { g_threads.store(threads); }

AllEnumerationThreads::AllEnumerationThreads() : saved_(t_share) { t_share = 0; }
AllEnumerationThreads::~AllEnumerationThreads() { t_share = saved_; }

void run_shards(unsigned threads, const std::function<void(const Shard&)>& work) {
  if (threads <= 1) {
    work(Shard{0, 1});
    return;
  }
  std::vector<std::thread> pool;
  std::exception_ptr failure;
  std::mutex mutex;
  auto shard = [&](unsigned k) {
    try {
      work(Shard{k, threads});
      settle_enumeration_budget();  // this thread's items not yet counted
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex);
      if (!failure) failure = std::current_exception();
    }
    mpfr_free_cache();  // MPFR keeps per-thread caches (constants such as ln 2): freed before the thread ends
  };
  try {
    for (unsigned k = 0; k < threads; ++k) pool.emplace_back(shard, k);
  } catch (const std::system_error& e) {  // a thread the system refuses (a limit on tasks): no std::terminate
    for (auto& t : pool) t.join();
    throw std::runtime_error("cannot start " + std::to_string(threads) + " threads (" + e.what() +
                             "): lower --threads");
  }
  for (auto& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
}

void run_in_order(std::size_t count, unsigned threads, const std::function<void(std::size_t)>& work,
                  const std::function<void(std::size_t)>& in_order,
                  const std::function<void(std::size_t, std::size_t)>& started) {
  if (threads <= 1 || count <= 1) {
    for (std::size_t i = 0; i < count; ++i) {
      if (started) started(i, i);
      work(i);
      in_order(i);
    }
    return;
  }
  const unsigned workers = static_cast<unsigned>(std::min<std::size_t>(threads, count));
  const unsigned share = std::max(1u, enumeration_threads() / workers);  // each item's enumerations
  std::mutex mutex;
  std::vector<bool> finished(count, false);
  std::vector<std::exception_ptr> error(count);
  std::size_t next = 0, emitted = 0;
  std::size_t failed_at = count;  // the least index whose work (or callback) threw
  auto fail = [&](std::size_t i, std::exception_ptr e) {  // under the lock
    error[i] = std::move(e);
    failed_at = std::min(failed_at, i);
  };
  // Under the lock: the next index to take, or count when none is left (all taken, or one failed: every index
  // before it was taken already, since they are taken in order).
  auto take = [&]() -> std::size_t {
    std::lock_guard<std::mutex> lock(mutex);
    if (failed_at < count || next >= count) return count;
    try {
      if (started) started(next, emitted);
    } catch (...) {
      fail(next, std::current_exception());
      return count;
    }
    return next++;
  };
  run_shards(workers, [&](const Shard&) {
    t_share = share;
    for (std::size_t i = take(); i < count; i = take()) {
      std::exception_ptr thrown;
      try {
        work(i);
        settle_enumeration_budget();  // item i's last items, so that a budget they pass stops it
      } catch (...) {
        thrown = std::current_exception();
      }
      std::lock_guard<std::mutex> lock(mutex);
      if (thrown) fail(i, thrown);
      finished[i] = true;
      try {
        for (; emitted < failed_at && finished[emitted]; ++emitted) in_order(emitted);
      } catch (...) {
        fail(emitted, std::current_exception());
      }
    }
  });
  // As on one thread: every index before the first failure was emitted; that failure is the one rethrown.
  if (failed_at < count) std::rethrow_exception(error[failed_at]);
}

}  // namespace lgc
