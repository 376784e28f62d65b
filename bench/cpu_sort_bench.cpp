// Chunk sort on the CPU: gsort's radix sort of key prefixes (1 thread and
// all threads) against std::stable_sort, on random 100-byte records with a
// 10-byte key (the gensort layout) and on 16-byte records with a u64 key.
// Prints the median of several runs. Usage: cpu_sort_bench [records] [runs]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <random>
#include <thread>
#include <vector>

#include "src/chunk_sort/cpu/cpu_backend.h"
#include "src/keys/key_layout.h"

namespace {

using Clock = std::chrono::steady_clock;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

template <typename F>
double time_median(int runs, F&& f) {
  std::vector<double> t;
  for (int i = 0; i < runs; ++i) {
    const auto t0 = Clock::now();
    f();
    t.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
  }
  return median(t);
}

void bench_layout(const char* name, const gsort::KeyLayout& layout, uint64_t n, int runs) {
  const uint32_t rs = layout.record_size();
  std::vector<uint8_t> records(n * rs);
  std::mt19937_64 rng(7);
  for (auto& b : records) b = static_cast<uint8_t>(rng());
  std::vector<uint32_t> order(n);

  const double stable = time_median(runs, [&] {
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      return layout.compare(records.data() + uint64_t{a} * rs, records.data() + uint64_t{b} * rs) < 0;
    });
  });
  std::vector<uint32_t> reference = order;
  std::printf("%-22s %-28s %8.3f s %8.1f Mrec/s\n", name, "std::stable_sort (1 thread)", stable, n / stable / 1e6);

  const unsigned all = std::max(1u, std::thread::hardware_concurrency());
  for (unsigned threads : {1u, all}) {
    gsort::ThreadPool pool(threads);
    auto backend = gsort::make_cpu_backend(layout, pool);
    const double t = time_median(runs, [&] { backend->sort_order(records.data(), n, order.data()); });
    if (order != reference) {
      std::fprintf(stderr, "MISMATCH against std::stable_sort\n");
      std::exit(1);
    }
    char label[64];
    std::snprintf(label, sizeof label, "gsort radix (%u thread%s)", threads, threads == 1 ? "" : "s");
    std::printf("%-22s %-28s %8.3f s %8.1f Mrec/s  %5.1fx\n", name, label, t, n / t / 1e6, stable / t);
    if (threads == all) break;
  }
}

}  // namespace

int main(int argc, char** argv) {
  const uint64_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 10000000;
  const int runs = argc > 2 ? std::atoi(argv[2]) : 5;
  std::printf("%llu records, median of %d runs\n", static_cast<unsigned long long>(n), runs);
  bench_layout("gensort 100B/10B key", gsort::KeyLayout({gsort::parse_key_spec("0:10")}, 100, false), n, runs);
  bench_layout("16B record, u64 key", gsort::KeyLayout({gsort::parse_key_spec("0:u64")}, 16, false), n, runs);
  return 0;
}
