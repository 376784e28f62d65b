// Times gsort's GPU sorts (kernels/device/) against CUB and Thrust.
//
//   kernel_sort_bench                 main table + rank-sort crossover
//   kernel_sort_bench --tune          also sweeps radix / merge policies
//   kernel_sort_bench --max-log2 26   caps the largest size (default 29 = 512M)
//   kernel_sort_bench --quick         fewer sizes and repetitions
//   kernel_sort_bench --profile       one gsort and one CUB radix sort of 256M u32 pairs (for ncu)
//
// Each cell: one warm-up, then the median of several timed runs (CUDA events
// around the sort alone), each on freshly generated random keys (values =
// index). Every cell's last output is checked on the device (order and, for
// gensort keys, the two-level order and stability).
//
// Key types:
//   u32     : u32 key + u32 value
//   u64     : u64 key + u32 value
//   gensort : a 10-byte key (bytes 0-7 as a big-endian u64 "hi", bytes 8-9 as
//             a u16 "lo") + u32 record index. Sorted LSD-style in two stable
//             passes: sort (lo, index) by lo, gather hi through that order,
//             then sort (hi, order) by hi. Radix sorts do 2 + 8 digit passes
//             (80 bits); merge sorts do two full sorts. Time covers both
//             passes and the gather.
#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <thrust/device_ptr.h>
#include <thrust/execution_policy.h>
#include <thrust/sort.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "bench/kernel_bench_support.cuh"
#include "kernels/device/merge_sort.cuh"
#include "kernels/device/radix_sort.cuh"
#include "kernels/device/sorts.h"

namespace gsort::bench {
namespace {

// ----------------------------------------------------------- sort adapters

enum class Algo { GsortRadix, GsortMerge, GsortRank, CubRadix, CubMerge, Thrust };
const char* algo_name(Algo a) {
  switch (a) {
    case Algo::GsortRadix: return "radix";
    case Algo::GsortMerge: return "merge";
    case Algo::GsortRank: return "rank";
    case Algo::CubRadix: return "cub_radix";
    case Algo::CubMerge: return "cub_merge";
    case Algo::Thrust: return "thrust";
  }
  return "?";
}

struct Less {
  template <typename T>
  __device__ bool operator()(const T& a, const T& b) const {
    return a < b;
  }
};

// Sorts (keys, vals) in place by bits [begin_bit, end_bit) with `algo`,
// using scratch from `mem` allocated on first use (kept across runs).
template <typename K>
struct Sorter {
  Algo algo;
  uint64_t n;
  int begin_bit, end_bit;
  K* keys;
  uint32_t* vals;
  void* temp = nullptr;
  size_t temp_bytes = 0;
  K* keys_out = nullptr;  // CUB radix sorts out of place: run() says where the result is
  uint32_t* vals_out = nullptr;

  void setup(Mem& mem) {
    switch (algo) {
      case Algo::GsortRadix:
        temp_bytes = gsort::kernels::radix_sort_pairs_temp_bytes(n, int(sizeof(K) * 8));
        break;
      case Algo::GsortMerge:
        temp_bytes = gsort::kernels::merge_sort_pairs_temp_bytes(n);
        break;
      case Algo::GsortRank:
        temp_bytes = gsort::kernels::rank_sort_pairs_temp_bytes(n);
        break;
      case Algo::CubRadix:
        keys_out = mem.get<K>(n);
        vals_out = mem.get<uint32_t>(n);
        CK(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, keys, keys_out, vals, vals_out,
                                           uint32_t(n), begin_bit, end_bit));
        break;
      case Algo::CubMerge:
        CK(cub::DeviceMergeSort::StableSortPairs(nullptr, temp_bytes, keys, vals, uint32_t(n), Less()));
        break;
      case Algo::Thrust:
        break;
    }
    if (temp_bytes > 0) temp = mem.bytes(temp_bytes);
  }

  // Returns the arrays holding the result.
  std::pair<K*, uint32_t*> run() {
    switch (algo) {
      case Algo::GsortRadix:
        gsort::kernels::radix_sort_pairs(keys, vals, n, begin_bit, end_bit, temp, temp_bytes, nullptr);
        return {keys, vals};
      case Algo::GsortMerge:
        if constexpr (sizeof(K) == 8) {
          gsort::kernels::merge_sort_pairs(keys, vals, n, temp, temp_bytes, nullptr);
          return {keys, vals};
        }
        break;
      case Algo::GsortRank:
        if constexpr (sizeof(K) == 8) {
          gsort::kernels::rank_sort_pairs(keys, vals, n, temp, temp_bytes, nullptr);
          return {keys, vals};
        }
        break;
      case Algo::CubRadix:
        CK(cub::DeviceRadixSort::SortPairs(temp, temp_bytes, keys, keys_out, vals, vals_out, uint32_t(n),
                                           begin_bit, end_bit));
        return {keys_out, vals_out};
      case Algo::CubMerge:
        CK(cub::DeviceMergeSort::StableSortPairs(temp, temp_bytes, keys, vals, uint32_t(n), Less()));
        return {keys, vals};
      case Algo::Thrust:
        thrust::stable_sort_by_key(thrust::cuda::par, thrust::device_pointer_cast(keys),
                                   thrust::device_pointer_cast(keys + n), thrust::device_pointer_cast(vals));
        return {keys, vals};
    }
    throw std::runtime_error("unsupported algorithm / key type");
  }
};

// Pairs of one key type.
template <typename K>
Timing bench_pairs(Algo algo, uint64_t n, int reps) {
  Mem mem;
  K* keys = mem.get<K>(n);
  uint32_t* vals = mem.get<uint32_t>(n);
  Sorter<K> s{algo, n, 0, int(sizeof(K) * 8), keys, vals};
  s.setup(mem);
  Flag flag;
  std::pair<K*, uint32_t*> result{keys, vals};
  Case c;
  c.prepare = [&](uint64_t seed) { fill<K>(keys, vals, n, seed); };
  c.run = [&] { result = s.run(); };
  c.check = [&] {
    flag.reset();
    check_sorted_kernel<K><<<1024, 256>>>(result.first, n, flag.d);
    CK(cudaGetLastError());
    return flag.ok();
  };
  return time_case(c, reps);
}

// 10-byte gensort keys in two stable passes (see the header comment).
Timing bench_gensort(Algo algo, uint64_t n, int reps) {
  Mem mem;
  uint64_t* hi = mem.get<uint64_t>(n);
  const bool wide_lo = algo == Algo::GsortMerge || algo == Algo::CubMerge;  // merge sorts take u64 keys
  uint32_t* lo32 = wide_lo ? nullptr : mem.get<uint32_t>(n);
  uint64_t* lo64 = wide_lo ? mem.get<uint64_t>(n) : nullptr;
  uint32_t* lo32_work = wide_lo ? nullptr : mem.get<uint32_t>(n);
  uint64_t* lo64_work = wide_lo ? mem.get<uint64_t>(n) : nullptr;
  uint32_t* order = mem.get<uint32_t>(n);
  uint64_t* hi_work = mem.get<uint64_t>(n);
  Sorter<uint32_t> s1{algo, n, 0, 16, lo32_work, order};
  Sorter<uint64_t> s1w{algo, n, 0, 64, lo64_work, order};
  if (wide_lo)
    s1w.setup(mem);
  else
    s1.setup(mem);
  // The second pass sorts (hi_work, order-after-pass-1); its arrays are set per run.
  Sorter<uint64_t> s2{algo, n, 0, 64, hi_work, order};
  s2.setup(mem);
  Flag flag;
  uint32_t* final_order = order;
  Case c;
  c.prepare = [&](uint64_t seed) {
    fill<uint64_t>(hi, order, n, seed);
    if (wide_lo) {
      fill<uint64_t>(lo64, nullptr, n, seed ^ 0xabcdef, 0xffff);
      copy_kernel<uint64_t><<<2048, 256>>>(lo64, lo64_work, n);
    } else {
      fill<uint32_t>(lo32, nullptr, n, seed ^ 0xabcdef, 0xffff);
      copy_kernel<uint32_t><<<2048, 256>>>(lo32, lo32_work, n);
    }
    CK(cudaGetLastError());
  };
  c.run = [&] {
    uint32_t* o1 = wide_lo ? s1w.run().second : s1.run().second;
    gather_kernel<<<2048, 256>>>(hi, o1, hi_work, n);
    s2.keys = hi_work;
    s2.vals = o1;
    final_order = s2.run().second;
  };
  c.check = [&] {
    flag.reset();
    if (wide_lo)
      check_gensort_kernel<uint64_t><<<1024, 256>>>(hi, lo64, final_order, n, flag.d);
    else
      check_gensort_kernel<uint32_t><<<1024, 256>>>(hi, lo32, final_order, n, flag.d);
    CK(cudaGetLastError());
    return flag.ok();
  };
  return time_case(c, reps);
}

// One sort of each kind, for a profiler (ncu -k regex:...).
void run_profile(uint64_t n) {
  Mem mem;
  uint32_t* keys = mem.get<uint32_t>(n);
  uint32_t* vals = mem.get<uint32_t>(n);
  fill<uint32_t>(keys, vals, n, 1);
  Sorter<uint32_t> gsort_radix{Algo::GsortRadix, n, 0, 32, keys, vals};
  gsort_radix.setup(mem);
  gsort_radix.run();
  fill<uint32_t>(keys, vals, n, 2);
  Sorter<uint32_t> cub{Algo::CubRadix, n, 0, 32, keys, vals};
  cub.setup(mem);
  cub.run();
  CK(cudaDeviceSynchronize());
}

// ------------------------------------------------------------------- tables

struct Row {
  std::string algo, type;
  uint64_t n;
  Timing t;
};

void print_row(const Row& r, const std::map<std::string, double>& cub_radix_ms,
               const std::map<std::string, double>& cub_merge_ms) {
  const std::string key = r.type + "/" + std::to_string(r.n);
  auto ratio = [&](const std::map<std::string, double>& m) {
    auto it = m.find(key);
    return it == m.end() ? 0.0 : it->second / r.t.ms;
  };
  std::printf("%-10s %-8s %10llu %10.3f %9.3f %8.2f %8.2f %s\n", r.algo.c_str(), r.type.c_str(),
              (unsigned long long)r.n, r.t.ms, r.n / r.t.ms / 1e6, ratio(cub_radix_ms), ratio(cub_merge_ms),
              r.t.ok ? "ok" : "WRONG");
  std::fflush(stdout);
}

// The main table: every algorithm on u32, u64 and gensort keys, 2^20 up to
// 2^max_log2 pairs, with each time as a ratio to CUB's radix and merge sorts.
void run_main_table(bool quick, int max_log2) {
  const std::vector<int> logs = quick ? std::vector<int>{20, 24, 28} : std::vector<int>{20, 22, 24, 26, 28, 29};
  std::map<std::string, double> cub_radix_ms, cub_merge_ms;
  std::printf("\n# median ms over runs; Gkeys/s; x_cubR = gsort speed / cub radix; x_cubM = / cub merge sort\n");
  std::printf("%-10s %-8s %10s %10s %9s %8s %8s\n", "algo", "keys", "n", "ms", "Gkeys/s", "x_cubR", "x_cubM");
  const Algo order[] = {Algo::CubRadix, Algo::CubMerge, Algo::GsortRadix, Algo::GsortMerge, Algo::Thrust};
  for (const std::string type : {"u32", "u64", "gensort"}) {
    for (int lg : logs) {
      if (lg > max_log2) continue;
      const uint64_t n = uint64_t(1) << lg;
      const int reps = quick ? 3 : (lg >= 26 ? 5 : 9);
      for (Algo a : order) {
        if (type == "u32" && (a == Algo::GsortMerge || a == Algo::CubMerge)) continue;  // merge sorts: u64 keys
        const Timing tm = type == "u32"   ? bench_pairs<uint32_t>(a, n, reps)
                          : type == "u64" ? bench_pairs<uint64_t>(a, n, reps)
                                          : bench_gensort(a, n, reps);
        const std::string key = type + "/" + std::to_string(n);
        if (a == Algo::CubRadix) cub_radix_ms[key] = tm.ms;
        if (a == Algo::CubMerge) cub_merge_ms[key] = tm.ms;
        print_row(Row{algo_name(a), type, n, tm}, cub_radix_ms, cub_merge_ms);
      }
    }
  }
}

// Small n: where the rank sort wins (u64 keys). Times in microseconds.
void run_small_n_table(bool quick) {
  std::printf("\n# small n, u64 key + u32 value: median us\n%-8s", "n");
  const Algo small_algos[] = {Algo::GsortRank, Algo::GsortRadix, Algo::GsortMerge, Algo::CubRadix, Algo::CubMerge};
  for (Algo a : small_algos) std::printf(" %10s", algo_name(a));
  std::printf("  best\n");
  for (uint64_t n : {32ull, 128ull, 512ull, 1024ull, 2048ull, 4096ull, 8192ull, 16384ull, 65536ull}) {
    std::printf("%-8llu", (unsigned long long)n);
    double best = 1e30;
    const char* best_name = "";
    for (Algo a : small_algos) {
      const Timing t = bench_pairs<uint64_t>(a, n, quick ? 5 : 25);
      std::printf(" %10.1f%s", t.ms * 1000, t.ok ? "" : "!");
      if (t.ms < best) {
        best = t.ms;
        best_name = algo_name(a);
      }
    }
    std::printf("  %s\n", best_name);
    std::fflush(stdout);
  }
}

}  // namespace
}  // namespace gsort::bench

int main(int argc, char** argv) {
  using namespace gsort::bench;
  bool tune = false, quick = false, profile = false;
  int max_log2 = 29;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--tune")) tune = true;
    else if (!std::strcmp(argv[i], "--quick")) quick = true;
    else if (!std::strcmp(argv[i], "--profile")) profile = true;
    else if (!std::strcmp(argv[i], "--max-log2") && i + 1 < argc) max_log2 = std::atoi(argv[++i]);
    else {
      std::fprintf(stderr, "usage: %s [--tune] [--quick] [--profile] [--max-log2 N]\n", argv[0]);
      return 2;
    }
  }
  try {
    cudaDeviceProp prop{};
    CK(cudaGetDeviceProperties(&prop, 0));
    std::printf("# device: %s, %d SMs, %.1f GiB, L2 %d MiB\n", prop.name, prop.multiProcessorCount,
                prop.totalGlobalMem / 1073741824.0, prop.l2CacheSize >> 20);
    if (profile) {
      run_profile(uint64_t(1) << 28);
      return 0;
    }
    if (tune) run_policy_sweep(uint64_t(1) << 28, uint64_t(1) << 26, 5);
    run_main_table(quick, max_log2);
    run_small_n_table(quick);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kernel_sort_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
