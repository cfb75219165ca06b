#include "lgcheck/enumerate/parallel.hpp"

#include <mpfr.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <mutex>
#include <stdexcept>

namespace lgc {
namespace {

std::atomic<unsigned> g_threads{0};

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
  const unsigned t = g_threads.load();
  if (t) return t;
  const unsigned cores = std::thread::hardware_concurrency();
  return cores ? cores : 1;
}

void set_enumeration_threads(unsigned threads) { g_threads.store(threads); }

void run_shards(unsigned threads, const std::function<void(const Shard&)>& work) {
  if (threads <= 1) {
    work(Shard{0, 1});
    return;
  }
  std::vector<std::thread> pool;
  std::exception_ptr failure;
  std::mutex mutex;
  for (unsigned k = 0; k < threads; ++k)
    pool.emplace_back([&, k] {
      try {
        work(Shard{k, threads});
      } catch (...) {
        std::lock_guard<std::mutex> lock(mutex);
        if (!failure) failure = std::current_exception();
      }
      mpfr_free_cache();  // MPFR keeps per-thread caches (constants such as ln 2): freed before the thread ends
    });
  for (auto& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
}

void run_in_order(std::size_t count, unsigned threads, const std::function<void(std::size_t)>& work,
                  const std::function<void(std::size_t)>& in_order, const std::function<void(std::size_t)>& started) {
  if (threads <= 1 || count <= 1) {
    for (std::size_t i = 0; i < count; ++i) {
      if (started) started(i);
      work(i);
      in_order(i);
    }
    return;
  }
  std::mutex mutex;
  std::vector<bool> finished(count, false);
  std::size_t next = 0, emitted = 0;
  bool failed = false;
  // Under the lock: the next i to take, or count when there is none (all taken, or a failure).
  auto take = [&]() -> std::size_t {
    std::lock_guard<std::mutex> lock(mutex);
    if (failed || next >= count) return count;
    if (started) started(next);
    return next++;
  };
  run_shards(static_cast<unsigned>(std::min<std::size_t>(threads, count)), [&](const Shard&) {
    for (std::size_t i = take(); i < count; i = take()) {
      try {
        work(i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mutex);
        failed = true;
        throw;
      }
      std::lock_guard<std::mutex> lock(mutex);
      finished[i] = true;
      if (failed) return;
      try {
        for (; emitted < count && finished[emitted]; ++emitted) in_order(emitted);
      } catch (...) {
        failed = true;
        throw;
      }
    }
  });
}

}  // namespace lgc
