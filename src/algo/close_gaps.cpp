#include "src/algo/close_gaps.h"

#include <algorithm>
#include <cstring>

#include "src/core/host_buffer.h"

namespace gsort {
namespace {

// Moves [from, from+bytes) down by `shift` < bytes, in `stripes` stripes of
// at least `shift` bytes at once: each thread first keeps the last `shift`
// bytes of its stripe aside (the next stripe's move lands on them), then
// moves the rest of its stripe down, then puts what it kept after it.
void move_in_stripes(ThreadPool& pool, uint8_t* base, uint64_t from, uint64_t bytes, uint64_t shift,
                     size_t stripes) {
  std::vector<uint64_t> at(stripes + 1);
  for (size_t t = 0; t <= stripes; ++t) at[t] = from + split_point(bytes, stripes, t);
  std::vector<uint8_t> kept((stripes - 1) * shift);
  pool.parallel_for(stripes - 1, [&](size_t t) { std::memcpy(kept.data() + t * shift, base + at[t + 1] - shift, shift); });
  pool.parallel_for(stripes, [&](size_t t) {
    const bool last = t + 1 == stripes;
    const uint64_t moved = at[t + 1] - at[t] - (last ? 0 : shift);
    std::memmove(base + at[t] - shift, base + at[t], moved);
    if (!last) std::memcpy(base + at[t + 1] - 2 * shift, kept.data() + t * shift, shift);
  });
}

// Moves [from, from+bytes) down to `to`.
void move_down(ThreadPool& pool, uint8_t* base, uint64_t from, uint64_t to, uint64_t bytes, uint64_t scratch_bytes) {
  const uint64_t shift = from - to;
  if (shift == 0 || bytes == 0) return;
  if (shift >= bytes) {
    parallel_copy(pool, base + to, base + from, bytes);
    return;
  }
  const size_t threads = pool.size();
  if (threads > 1 && bytes / threads >= shift && (threads - 1) * shift <= scratch_bytes) {
    move_in_stripes(pool, base, from, bytes, shift, threads);
    return;
  }
  // Waves of `shift` bytes: each lands where the one before it was.
  for (uint64_t done = 0; done < bytes; done += shift) {
    parallel_copy(pool, base + to + done, base + from + done, std::min(shift, bytes - done));
  }
}

}  // namespace

uint64_t close_gaps(ThreadPool& pool, uint8_t* base, const std::vector<Piece>& pieces, uint64_t scratch_bytes) {
  uint64_t to = 0;
  for (const Piece& p : pieces) {
    move_down(pool, base, p.from, to, p.bytes, scratch_bytes);
    to += p.bytes;
  }
  return to;
}

}  // namespace gsort
