// --tune of kernel_sort_bench: times gsort's radix and merge sorts under
// other block sizes, items per thread and occupancy targets than the
// defaults (kernels/device/radix_sort.cuh, merge_sort.cuh).
#include <cstdio>

#include "bench/kernel_bench_support.cuh"
#include "kernels/device/merge_sort.cuh"
#include "kernels/device/radix_sort.cuh"

namespace gsort::bench {
namespace {

template <class P, typename K>
Timing bench_radix_policy(uint64_t n, int reps, uint64_t tiles_per_chunk = 1) {
  Mem mem;
  K* keys = mem.get<K>(n);
  uint32_t* vals = mem.get<uint32_t>(n);
  gsort::kernels::RadixOptions opt;
  opt.tiles_per_chunk = tiles_per_chunk;
  const size_t tb = gsort::kernels::radix_sort_temp_bytes<P, K>(n, opt);
  void* temp = mem.bytes(tb);
  Flag flag;
  Case c;
  c.prepare = [&](uint64_t seed) { fill<K>(keys, vals, n, seed); };
  c.run = [&] {
    gsort::kernels::radix_sort_pairs<P, K>(keys, vals, n, 0, int(sizeof(K) * 8), temp, tb, nullptr, opt);
  };
  c.check = [&] {
    flag.reset();
    check_sorted_kernel<K><<<1024, 256>>>(keys, n, flag.d);
    return flag.ok();
  };
  return time_case(c, reps);
}

template <class P>
Timing bench_merge_policy(uint64_t n, int reps) {
  Mem mem;
  uint64_t* keys = mem.get<uint64_t>(n);
  uint32_t* vals = mem.get<uint32_t>(n);
  const size_t tb = gsort::kernels::merge_sort_temp_bytes<P>(n);
  void* temp = mem.bytes(tb);
  Flag flag;
  Case c;
  c.prepare = [&](uint64_t seed) { fill<uint64_t>(keys, vals, n, seed); };
  c.run = [&] { gsort::kernels::merge_sort_pairs<P>(keys, vals, n, temp, tb, nullptr); };
  c.check = [&] {
    flag.reset();
    check_sorted_kernel<uint64_t><<<1024, 256>>>(keys, n, flag.d);
    return flag.ok();
  };
  return time_case(c, reps);
}

void print_tune(const char* what, const char* policy, uint64_t n, const Timing& t) {
  std::printf("tune  %-8s %-22s n=%-10llu %9.3f ms %8.3f Gkeys/s %s\n", what, policy, (unsigned long long)n,
              t.ms, n / t.ms / 1e6, t.ok ? "" : "WRONG");
  std::fflush(stdout);
}

template <int B, int I, int R, int M>
const char* rname(int chunk) {
  static char buf[64];
  std::snprintf(buf, sizeof buf, "B%d I%d R%d minB%d k%d", B, I, R, M, chunk);
  return buf;
}

}  // namespace

void run_policy_sweep(uint64_t n_radix, uint64_t n_merge, int reps) {
  using namespace gsort::kernels;
  std::printf("\n# policy sweep (radix: %llu pairs, merge: %llu pairs)\n", (unsigned long long)n_radix,
              (unsigned long long)n_merge);
#define SWEEP_RADIX(K, B, I, R, M, C)                                                     \
  print_tune(#K, rname<B, I, R, M>(C), n_radix,                                              \
             bench_radix_policy<RadixPolicy<B, I, R, M>, K>(n_radix, reps, C))
  SWEEP_RADIX(uint32_t, 256, 24, 8, 2, 1);  // default
  SWEEP_RADIX(uint32_t, 256, 16, 8, 2, 1);
  SWEEP_RADIX(uint32_t, 256, 28, 8, 2, 1);
  SWEEP_RADIX(uint32_t, 256, 32, 8, 2, 1);
  SWEEP_RADIX(uint32_t, 384, 16, 8, 2, 1);
  SWEEP_RADIX(uint32_t, 512, 16, 8, 1, 1);
  SWEEP_RADIX(uint32_t, 256, 24, 8, 2, 2);
  SWEEP_RADIX(uint64_t, 384, 12, 8, 2, 1);  // default
  SWEEP_RADIX(uint64_t, 256, 16, 8, 2, 1);
  SWEEP_RADIX(uint64_t, 256, 20, 8, 2, 1);
  SWEEP_RADIX(uint64_t, 256, 24, 8, 2, 1);
  SWEEP_RADIX(uint64_t, 512, 12, 8, 1, 1);
  SWEEP_RADIX(uint64_t, 384, 16, 8, 2, 1);
#undef SWEEP_RADIX
#define SWEEP_MERGE(B, I, M) \
  print_tune("merge", rname<B, I, 0, M>(0), n_merge, bench_merge_policy<MergePolicy<B, I, M>>(n_merge, reps))
  SWEEP_MERGE(256, 5, 1);  // default
  SWEEP_MERGE(256, 3, 1);
  SWEEP_MERGE(256, 7, 1);
  SWEEP_MERGE(128, 5, 1);
  SWEEP_MERGE(512, 5, 1);
  SWEEP_MERGE(256, 5, 2);
#undef SWEEP_MERGE
}

}  // namespace gsort::bench
