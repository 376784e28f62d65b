#include "src/lines/sort/pair_sort.h"

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

// The bits in which some prefix differs from the first.
uint64_t varying_bits(ThreadPool& pool, const KeyEntry* e, size_t n, size_t tasks) {
  std::vector<uint64_t> bits(tasks, 0);
  const uint64_t first = e[0].prefix;
  pool.parallel_for(tasks, [&](size_t t) {
    uint64_t b = 0;
    for (size_t i = split_point(n, tasks, t), end = split_point(n, tasks, t + 1); i < end; ++i) b |= e[i].prefix ^ first;
    bits[t] = b;
  });
  uint64_t all = 0;
  for (uint64_t b : bits) all |= b;
  return all;
}

// One stable scatter of src into dst by the byte at `shift`, on all threads.
// counts[t] enters as task t's histogram.
void scatter_by_byte(ThreadPool& pool, const KeyEntry* src, KeyEntry* dst, size_t n, int shift,
                     std::vector<Counts>& counts) {
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
      dst[next[(src[i].prefix >> shift) & 0xFF]++] = src[i];
    }
  });
}

void count_byte(ThreadPool& pool, const KeyEntry* e, size_t n, int shift, std::vector<Counts>& counts) {
  const size_t tasks = counts.size();
  pool.parallel_for(tasks, [&](size_t t) {
    Counts& c = counts[t];
    c.fill(0);
    for (size_t i = split_point(n, tasks, t), end = split_point(n, tasks, t + 1); i < end; ++i) {
      ++c[(e[i].prefix >> shift) & 0xFF];
    }
  });
}

// LSD over every byte that varies, each pass on all threads.
void parallel_lsd(ThreadPool& pool, KeyEntry* e, KeyEntry* tmp, size_t n, uint64_t varying, size_t tasks) {
  std::vector<Counts> counts(tasks);
  KeyEntry* src = e;
  KeyEntry* dst = tmp;
  for (int shift = 0; shift < 64; shift += 8) {
    if (((varying >> shift) & 0xFF) == 0) continue;
    count_byte(pool, src, n, shift, counts);
    scatter_by_byte(pool, src, dst, n, shift, counts);
    std::swap(src, dst);
  }
  if (src != e) parallel_copy(pool, reinterpret_cast<uint8_t*>(e), reinterpret_cast<const uint8_t*>(src), n * sizeof(KeyEntry));
}

// The digit of the highest varying bits: runs (shift, width) of bits, from the top.
struct TopBits {
  struct Run {
    int shift;
    int width;
  };
  std::vector<Run> runs;
  int bits = 0;
  TopBits(uint64_t varying, int most) {
    for (int b = 63; b >= 0 && bits < most; --b) {
      if (((varying >> b) & 1) == 0) continue;
      if (!runs.empty() && runs.back().shift == b + 1) {
        --runs.back().shift;
        ++runs.back().width;
      } else {
        runs.push_back(Run{b, 1});
      }
      ++bits;
    }
  }
  size_t digit(uint64_t p) const {
    size_t d = 0;
    for (const Run& r : runs) d = d << r.width | ((p >> r.shift) & ((uint64_t{1} << r.width) - 1));
    return d;
  }
};

}  // namespace

bool scatter_by_top_bits(ThreadPool& pool, const KeyEntry* e, KeyEntry* tmp, size_t n, int bits,
                         std::vector<size_t>& starts) {
  const size_t tasks = n < kParallelMin ? 1 : pool.balanced_task_count();
  const uint64_t varying = n == 0 ? 0 : varying_bits(pool, e, n, tasks);
  if (varying == 0) return false;
  const TopBits top(varying, bits);
  const size_t buckets = size_t{1} << top.bits;
  std::vector<std::vector<size_t>> counts(tasks, std::vector<size_t>(buckets, 0));
  pool.parallel_for(tasks, [&](size_t t) {
    std::vector<size_t>& c = counts[t];
    for (size_t i = split_point(n, tasks, t), end = split_point(n, tasks, t + 1); i < end; ++i) ++c[top.digit(e[i].prefix)];
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
      tmp[next[top.digit(e[i].prefix)]++] = e[i];
    }
  });
  return true;
}

void sort_pairs(ThreadPool& pool, KeyEntry* e, KeyEntry* tmp, size_t n) {
  if (n < kParallelMin || pool.size() == 1) {
    radix_sort_entries(e, tmp, n);
    return;
  }
  const size_t tasks = pool.balanced_task_count();
  const uint64_t varying = varying_bits(pool, e, n, tasks);
  if (varying == 0) return;  // all equal: already in order
  int top = 56;
  while (((varying >> top) & 0xFF) == 0) top -= 8;
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
    radix_sort_entries(tmp + begin, e + begin, len);
    std::memcpy(e + begin, tmp + begin, len * sizeof(KeyEntry));
  });
}

}  // namespace gsort
