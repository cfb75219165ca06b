#include "lgcheck/enumerate/parallel.hpp"

#include <mpfr.h>

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

}  // namespace lgc
