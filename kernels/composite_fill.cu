#include "kernels/composite_fill.h"

#include "src/cuda/check.h"

namespace gsort::kernels {
namespace {

// The composite as it is built: 128 bits, shifted in at the bottom.
struct Bits128 {
  uint64_t hi = 0, lo = 0;
  // Shifts in `bits` (0 to 64) bits of v (nothing above them set).
  __device__ void push(int bits, uint64_t v) {
    if (bits == 0) return;
    if (bits == 64) {
      hi = lo;
      lo = v;
      return;
    }
    hi = hi << bits | lo >> (64 - bits);
    lo = lo << bits | v;
  }
  __device__ void shift_left(int bits) {
    while (bits >= 64) {
      hi = lo;
      lo = 0;
      bits -= 64;
    }
    if (bits > 0) {
      hi = hi << bits | lo >> (64 - bits);
      lo <<= bits;
    }
  }
};

// BitSqueeze's gather: the bits of w under mask, packed in order, run by run.
__device__ uint64_t squeeze(uint64_t w, uint64_t mask) {
  uint64_t d = 0;
  while (mask != 0) {
    const int top = 63 - __clzll(static_cast<long long>(mask));
    const uint64_t clear_below = ~mask << (63 - top);  // the run's bits as leading zeros
    const int width = clear_below == 0 ? top + 1 : __clzll(static_cast<long long>(clear_below));
    if (width == 64) return w;
    const int low = top + 1 - width;
    const uint64_t run = (uint64_t{1} << width) - 1;
    d = d << width | ((w >> low) & run);
    mask &= ~(run << low);
  }
  return d;
}

// The rank of s among the level's slots (in order), or ~0u.
__device__ uint32_t rank_of(const DeviceLevel& p, const Slot& s) {
  uint32_t lo = 0, hi = p.ranked_count;
  while (lo < hi) {
    const uint32_t mid = (lo + hi) / 2;
    const Slot& m = p.ranked[mid];
    int c = 0;
    for (uint64_t w = 0; w < kSlotWords && c == 0; ++w) c = m.w[w] < s.w[w] ? -1 : m.w[w] > s.w[w] ? 1 : 0;
    if (c == 0) return p.ranks != nullptr ? p.ranks[mid] : mid;
    if (c < 0) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return ~0u;
}

// A collated level's head of the line, as the host's collated_head
// (src/keys/line_orders.cpp) makes it from the same table; false where the
// table cannot say it.
__device__ bool collated_head(const DeviceLevel& p, const uint8_t* line, uint64_t len, uint8_t* head, uint64_t* n) {
  uint64_t begin = 0, end = 0;
  line_key_extent(line, len, p.spec.key, p.spec.separator, &begin, &end);
  return table_head(p.heads, line + begin, end - begin, head, kImageHeadBytes, n);
}

// Line [line, line + len)'s entry bits by the plan, as the host's
// composite_entry (src/chunk_sort/lines/composite_pass.cpp) makes them; false
// where the line does not fit the plan.
__device__ bool composite_bits(const DeviceComposite& c, const uint8_t* line, uint64_t len, LineEntry& e) {
  Bits128 acc;
  for (uint32_t l = 0; l < c.count; ++l) {
    const DeviceLevel& p = c.levels[l];
    const uint64_t words = p.ranked ? kSlotWords : p.raw_bits > 0 ? (static_cast<uint64_t>(p.raw_bits) + 63) / 64 : p.words;
    uint8_t head[kImageHeadBytes];
    uint64_t head_len = 0;
    if (p.device_heads && !collated_head(p, line, len, head, &head_len)) return false;
    const LevelSlot slot = p.device_heads ? LevelSlot::of_head(head, head_len, p.spec.key.reverse)
                           : p.key_bytes  ? LevelSlot::of_key_bytes(p.spec, line, len)
                                          : LevelSlot(p.spec, line, len, 8 * words);
    if (p.exact && (slot.length() > p.longest || slot.inexact())) return false;
    if (p.raw_bits > 0) {
      for (int taken = 0, w = 0; taken < p.raw_bits; taken += 64, ++w) {
        const int bits = p.raw_bits - taken < 64 ? p.raw_bits - taken : 64;
        const uint64_t word = slot.word(static_cast<uint64_t>(w));
        acc.push(bits, bits == 64 ? word : word >> (64 - bits));
      }
      continue;
    }
    if (p.ranked) {
      const uint32_t rank = rank_of(p, slot.slot());
      if (rank == ~0u) return false;
      acc.push(p.rank_bits, rank >> p.rank_shift);
      continue;
    }
    for (uint64_t w = 0; w < p.words; ++w) {
      const uint64_t word = slot.word(w);
      if ((word ^ p.reference[w]) & p.constant[w]) return false;
      if (w == 0 && ((word ^ sign_mirror(word)) & p.mirrored) != 0) return false;
      acc.push(p.take_bits[w], squeeze(word, p.take_mask[w]));
    }
  }
  acc.shift_left(96 - c.bits);  // the composite in bits 95..0, left-aligned there
  e.hi = acc.hi << 32 | acc.lo >> 32;
  e.lo = static_cast<uint32_t>(acc.lo);
  return true;
}

__global__ void composite_fill_kernel(DeviceComposite c, const uint8_t* text, const uint64_t* starts, uint64_t n,
                                      LineEntry* entries, unsigned long long* misfits, uint32_t* misfit_lines,
                                      uint32_t most) {
  const uint64_t base = starts[0];
  const uint64_t step = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  for (uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) {
    const uint64_t begin = starts[i];
    LineEntry e{0, 0, static_cast<uint32_t>(i)};
    if (!composite_bits(c, text + (begin - base), starts[i + 1] - begin - 1, e)) {
      e = LineEntry{0, 0, static_cast<uint32_t>(i)};
      const unsigned long long k = atomicAdd(misfits, 1ull);
      if (k < most) misfit_lines[k] = static_cast<uint32_t>(i);
    }
    entries[i] = e;
  }
}

}  // namespace

void fill_composite_entries(const DeviceComposite& plan, const uint8_t* text, const uint64_t* starts, uint64_t n,
                            LineEntry* entries, unsigned long long* misfits, uint32_t* misfit_lines, uint32_t most,
                            cudaStream_t stream) {
  GSORT_CUDA_CHECK(cudaMemsetAsync(misfits, 0, sizeof *misfits, stream));
  if (n == 0) return;
  constexpr int kThreads = 256;
  const uint64_t blocks = (n + kThreads - 1) / kThreads;
  const unsigned grid = static_cast<unsigned>(blocks < (1u << 20) ? blocks : (1u << 20));
  composite_fill_kernel<<<grid, kThreads, 0, stream>>>(plan, text, starts, n, entries, misfits, misfit_lines, most);
  GSORT_CUDA_CHECK(cudaGetLastError());
}

}  // namespace gsort::kernels
