#include "src/chunk_sort/cpu/pair_sort.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

#include "src/chunk_sort/cpu/radix_sort.h"
#include "src/core/host_buffer.h"

namespace gsort {
namespace {

constexpr size_t kParallelMin = size_t{1} << 16;  // fewer pairs: one thread
using Counts = std::array<size_t, 256>;

// Both kinds of pairs seen as a 96-bit key: hi, then lo (a KeyEntry's lo
// is 0). Byte d of the key counts from the least significant.
uint64_t key_hi(const KeyEntry& e) { return e.prefix; }
uint32_t key_lo(const KeyEntry&) { return 0; }
uint64_t key_hi(const WideEntry& e) { return e.hi; }
uint32_t key_lo(const WideEntry& e) { return e.lo; }
constexpr int kKeyBytes = 12;

struct Bits {
  uint64_t hi = 0;
  uint32_t lo = 0;
  bool any() const { return hi != 0 || lo != 0; }
  bool bit(int b) const { return b >= 32 ? ((hi >> (b - 32)) & 1) != 0 : ((lo >> b) & 1) != 0; }
  unsigned byte(int d) const { return d < 4 ? (lo >> (8 * d)) & 0xFF : (hi >> (8 * (d - 4))) & 0xFF; }
};

template <typename E>
unsigned key_byte(const E& e, int d) {
  return d < 4 ? (key_lo(e) >> (8 * d)) & 0xFF : (key_hi(e) >> (8 * (d - 4))) & 0xFF;
}

// The bits in which some key differs from the first.
template <typename E>
Bits varying_bits(ThreadPool& pool, const E* e, size_t n, size_t tasks) {
  std::vector<Bits> bits(tasks);
  const uint64_t hi = key_hi(e[0]);
  const uint32_t lo = key_lo(e[0]);
  pool.parallel_for(tasks, [&](size_t t) {
    Bits b;
    for (size_t i = split_point(n, tasks, t), end = split_point(n, tasks, t + 1); i < end; ++i) {
      b.hi |= key_hi(e[i]) ^ hi;
      b.lo |= key_lo(e[i]) ^ lo;
    }
    bits[t] = b;
  });
  Bits all;
  for (const Bits& b : bits) {
    all.hi |= b.hi;
    all.lo |= b.lo;
  }
  return all;
}

// One stable scatter of src into dst by key byte d, on all threads.
// counts[t] enters as task t's histogram.
template <typename E>
void scatter_by_byte(ThreadPool& pool, const E* src, E* dst, size_t n, int d, std::vector<Counts>& counts) {
  const size_t tasks = counts.size();
  size_t offset = 0;
  for (int b = 0; b < 256; ++b) {
    for (size_t t = 0; t < tasks; ++t) {
      const size_t c = counts[t][b];
      counts[t][b] = offset;
      offset += c;
    }
  }
  pool.parallel_for(tasks, [&](size_t t) {
    Counts& next = counts[t];
    for (size_t i = split_point(n, tasks, t), end = split_point(n, tasks, t + 1); i < end; ++i) {
      dst[next[key_byte(src[i], d)]++] = src[i];
    }
  });
}

template <typename E>
void count_byte(ThreadPool& pool, const E* e, size_t n, int d, std::vector<Counts>& counts) {
  const size_t tasks = counts.size();
  pool.parallel_for(tasks, [&](size_t t) {
    Counts& c = counts[t];
    c.fill(0);
    for (size_t i = split_point(n, tasks, t), end = split_point(n, tasks, t + 1); i < end; ++i) ++c[key_byte(e[i], d)];
  });
}

// LSD over every byte that varies, each pass on all threads.
template <typename E>
void parallel_lsd(ThreadPool& pool, E* e, E* tmp, size_t n, const Bits& varying, size_t tasks) {
  std::vector<Counts> counts(tasks);
  E* src = e;
  E* dst = tmp;
  for (int d = 0; d < kKeyBytes; ++d) {
    if (varying.byte(d) == 0) continue;
    count_byte(pool, src, n, d, counts);
    scatter_by_byte(pool, src, dst, n, d, counts);
    std::swap(src, dst);
  }
  if (src != e) parallel_copy(pool, reinterpret_cast<uint8_t*>(e), reinterpret_cast<const uint8_t*>(src), n * sizeof(E));
}

// One thread's sort of a bucket.
void bucket_sort(KeyEntry* e, KeyEntry* tmp, size_t n) { radix_sort_entries(e, tmp, n); }

template <typename E>
void sort_on_pool(ThreadPool& pool, E* e, E* tmp, size_t n) {
  if (n < kParallelMin || pool.size() == 1) {
    bucket_sort(e, tmp, n);
    return;
  }
  const size_t tasks = pool.balanced_task_count();
  const Bits varying = varying_bits(pool, e, n, tasks);
  if (!varying.any()) return;  // all equal: already in order
  int top = kKeyBytes - 1;
  while (varying.byte(top) == 0) --top;
  std::vector<Counts> counts(tasks);
  count_byte(pool, e, n, top, counts);
  size_t largest = 0;
  std::array<size_t, 257> start{};
  for (int b = 0; b < 256; ++b) {
    size_t total = 0;
    for (size_t t = 0; t < tasks; ++t) total += counts[t][b];
    start[b + 1] = start[b] + total;
    largest = std::max(largest, total);
  }
  if (largest > n / 2) {
    parallel_lsd(pool, e, tmp, n, varying, tasks);
    return;
  }
  scatter_by_byte(pool, e, tmp, n, top, counts);
  // Each bucket sorted by one thread, from tmp back into e.
  pool.parallel_for(256, [&](size_t b) {
    const size_t begin = start[b], len = start[b + 1] - begin;
    if (len == 0) return;
    bucket_sort(tmp + begin, e + begin, len);
    std::memcpy(e + begin, tmp + begin, len * sizeof(E));
  });
}

// The digit of the highest varying bits of the 96-bit key: runs (bit,
// width) from the top, bit 95 the top of hi, bit 31 the top of lo.
struct TopBits {
  struct Run {
    int shift;
    int width;
  };
  std::vector<Run> runs;
  int bits = 0;
  TopBits(const Bits& varying, int most) {
    for (int b = 95; b >= 0 && bits < most; --b) {
      if (!varying.bit(b)) continue;
      if (!runs.empty() && runs.back().shift == b + 1 && b != 31) {
        --runs.back().shift;
        ++runs.back().width;
      } else {
        runs.push_back(Run{b, 1});
      }
      ++bits;
    }
  }
  size_t digit(const WideEntry& e) const {
    size_t d = 0;
    for (const Run& r : runs) {
      const uint64_t word = r.shift >= 32 ? e.hi >> (r.shift - 32) : uint64_t{e.lo} >> r.shift;
      d = d << r.width | (word & ((uint64_t{1} << r.width) - 1));
    }
    return d;
  }
};

}  // namespace

void sort_pairs(ThreadPool& pool, KeyEntry* e, KeyEntry* tmp, size_t n) { sort_on_pool(pool, e, tmp, n); }

void radix_sort_wide(WideEntry* e, WideEntry* tmp, size_t n) {
  if (n < 64) {  // a comparison sort is cheaper than the passes
    std::stable_sort(e, e + n, [](const WideEntry& a, const WideEntry& b) {
      return a.hi != b.hi ? a.hi < b.hi : a.lo < b.lo;
    });
    return;
  }
  size_t counts[kKeyBytes][256];
  std::memset(counts, 0, sizeof counts);
  for (size_t i = 0; i < n; ++i) {
    for (int d = 0; d < kKeyBytes; ++d) ++counts[d][key_byte(e[i], d)];
  }
  WideEntry* src = e;
  WideEntry* dst = tmp;
  for (int d = 0; d < kKeyBytes; ++d) {
    size_t* c = counts[d];
    if (c[key_byte(src[0], d)] == n) continue;  // every entry has this digit
    for (size_t b = 0, offset = 0; b < 256; ++b) {
      const size_t k = c[b];
      c[b] = offset;
      offset += k;
    }
    for (size_t i = 0; i < n; ++i) dst[c[key_byte(src[i], d)]++] = src[i];
    std::swap(src, dst);
  }
  if (src != e) std::memcpy(e, src, n * sizeof(WideEntry));
}

bool scatter_wide_by_top_bits(ThreadPool& pool, const WideEntry* e, WideEntry* tmp, size_t n, int bits,
                              std::vector<size_t>& starts) {
  const size_t tasks = n < kParallelMin ? 1 : pool.balanced_task_count();
  const Bits varying = n == 0 ? Bits{} : varying_bits(pool, e, n, tasks);
  if (!varying.any()) return false;
  const TopBits top(varying, bits);
  const size_t buckets = size_t{1} << top.bits;
  std::vector<std::vector<size_t>> counts(tasks, std::vector<size_t>(buckets, 0));
  pool.parallel_for(tasks, [&](size_t t) {
    std::vector<size_t>& c = counts[t];
    for (size_t i = split_point(n, tasks, t), end = split_point(n, tasks, t + 1); i < end; ++i) ++c[top.digit(e[i])];
  });
  starts.assign(buckets + 1, 0);
  size_t offset = 0;
  for (size_t b = 0; b < buckets; ++b) {
    starts[b] = offset;
    for (size_t t = 0; t < tasks; ++t) {
      const size_t c = counts[t][b];
      counts[t][b] = offset;
      offset += c;
    }
  }
  starts[buckets] = offset;
  pool.parallel_for(tasks, [&](size_t t) {
    std::vector<size_t>& next = counts[t];
    for (size_t i = split_point(n, tasks, t), end = split_point(n, tasks, t + 1); i < end; ++i) {
      tmp[next[top.digit(e[i])]++] = e[i];
    }
  });
  return true;
}

// The entries scattered by their top 12 varying bits, wherever those lie
// (a byte of the key may hold only one or two of them: its 256 buckets
// would leave most entries in one, sorted by passes over every byte), each
// bucket then sorted by one task; a bucket of more than half the entries,
// whose bits the scatter spent, sorted again this way by all threads.
void sort_wide(ThreadPool& pool, WideEntry* e, WideEntry* tmp, size_t n) {
  if (n < kParallelMin || pool.size() == 1) {
    radix_sort_wide(e, tmp, n);
    return;
  }
  std::vector<size_t> starts;
  if (!scatter_wide_by_top_bits(pool, e, tmp, n, 12, starts)) return;  // all equal: in order
  const size_t buckets = starts.size() - 1;
  pool.parallel_for(buckets, [&](size_t b) {
    const size_t begin = starts[b], len = starts[b + 1] - begin;
    if (len == 0 || 2 * len > n) return;
    radix_sort_wide(tmp + begin, e + begin, len);
    std::memcpy(e + begin, tmp + begin, len * sizeof(WideEntry));
  });
  for (size_t b = 0; b < buckets; ++b) {
    const size_t begin = starts[b], len = starts[b + 1] - begin;
    if (2 * len <= n) continue;
    parallel_copy(pool, reinterpret_cast<uint8_t*>(e + begin), reinterpret_cast<const uint8_t*>(tmp + begin),
                  len * sizeof(WideEntry));
    sort_wide(pool, e + begin, tmp + begin, len);
  }
}

}  // namespace gsort
