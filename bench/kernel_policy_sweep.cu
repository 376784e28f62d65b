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

// "B256 I24 R8 minB2 k1": a policy's threads per block, items per thread,
// radix bits (0: a merge policy), resident blocks asked for, and the radix
// sort's tiles per chunk (0: a merge).
const char* policy_name(int block, int items, int radix_bits, int min_blocks, uint64_t chunk) {
  static char buf[64];
  std::snprintf(buf, sizeof buf, "B%d I%d R%d minB%d k%llu", block, items, radix_bits, min_blocks,
                (unsigned long long)chunk);
  return buf;
}

// Times the radix sort of n K keys (with values) under each policy in turn,
// tiles_per_chunk tiles to a chunk.
template <typename K, class... Policies>
void sweep_radix(uint64_t n, int reps, uint64_t tiles_per_chunk = 1) {
  const char* key = sizeof(K) == 4 ? "uint32_t" : "uint64_t";
  (print_tune(key,
              policy_name(Policies::BLOCK, Policies::ITEMS, Policies::RADIX_BITS, Policies::MIN_BLOCKS,
                          tiles_per_chunk),
              n, bench_radix_policy<Policies, K>(n, reps, tiles_per_chunk)),
   ...);
}

// Times the merge sort of n u64 keys (with values) under each policy in turn.
template <class... Policies>
void sweep_merge(uint64_t n, int reps) {
  (print_tune("merge", policy_name(Policies::BLOCK, Policies::ITEMS, 0, Policies::MIN_BLOCKS, 0), n,
              bench_merge_policy<Policies>(n, reps)),
   ...);
}

}  // namespace

void run_policy_sweep(uint64_t n_radix, uint64_t n_merge, int reps) {
  using namespace gsort::kernels;
  std::printf("\n# policy sweep (radix: %llu pairs, merge: %llu pairs)\n", (unsigned long long)n_radix,
              (unsigned long long)n_merge);
  // The default first, then the others.
  sweep_radix<uint32_t, RadixPolicyU32, RadixPolicy<256, 16, 8, 2>, RadixPolicy<256, 28, 8, 2>,
              RadixPolicy<256, 32, 8, 2>, RadixPolicy<384, 16, 8, 2>, RadixPolicy<512, 16, 8, 1>>(n_radix, reps);
  sweep_radix<uint32_t, RadixPolicyU32>(n_radix, reps, 2);
  sweep_radix<uint64_t, RadixPolicyU64, RadixPolicy<256, 16, 8, 2>, RadixPolicy<256, 20, 8, 2>,
              RadixPolicy<256, 24, 8, 2>, RadixPolicy<512, 12, 8, 1>, RadixPolicy<384, 16, 8, 2>>(n_radix, reps);
  sweep_merge<MergePolicyDefault, MergePolicy<256, 3, 1>, MergePolicy<256, 7, 1>, MergePolicy<128, 5, 1>,
              MergePolicy<512, 5, 1>, MergePolicy<256, 5, 2>>(n_merge, reps);
}

}  // namespace gsort::bench
