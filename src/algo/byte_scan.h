// Finding every place of one byte value (a line terminator) in a buffer, 64
// bytes a step: one call of memchr per line costs more than the line's
// bytes where lines are short (CSV rows of 30 bytes). SSE2 (every x86-64)
// compares 16 bytes an instruction; elsewhere a word at a time.
#pragma once

#include <cstdint>
#include <cstring>

#if defined(__SSE2__) && defined(__x86_64__)
#define GSORT_BYTE_SCAN_SSE2 1
#include <emmintrin.h>
#endif

namespace gsort {

// Bit k set where p[k] == b, for k < 64 (p[0, 64) must be readable).
inline uint64_t byte_mask64(const uint8_t* p, uint8_t b) {
#ifdef GSORT_BYTE_SCAN_SSE2
  const __m128i needle = _mm_set1_epi8(static_cast<char>(b));
  uint64_t mask = 0;
  for (int q = 0; q < 4; ++q) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * q));
    mask |= static_cast<uint64_t>(static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, needle)))) << (16 * q);
  }
  return mask;
#else
  uint64_t mask = 0;
  for (int k = 0; k < 64; ++k) mask |= static_cast<uint64_t>(p[k] == b) << k;
  return mask;
#endif
}

// Calls found(offset) for each offset in [0, n) where p[offset] == b, in
// order, until it returns false; returns how many calls returned true.
template <typename Found>
uint64_t for_each_byte(const uint8_t* p, uint64_t n, uint8_t b, Found found) {
  uint64_t hits = 0, at = 0;
  for (; at + 64 <= n; at += 64) {
    for (uint64_t mask = byte_mask64(p + at, b); mask != 0; mask &= mask - 1) {
      if (!found(at + static_cast<uint64_t>(__builtin_ctzll(mask)))) return hits;
      ++hits;
    }
  }
  for (; at < n; ++at) {
    if (p[at] != b) continue;
    if (!found(at)) return hits;
    ++hits;
  }
  return hits;
}

// How many bytes of p[0, n) equal b.
inline uint64_t count_byte(const uint8_t* p, uint64_t n, uint8_t b) {
  uint64_t count = 0, at = 0;
#ifdef GSORT_BYTE_SCAN_SSE2
  // Matches counted down per byte lane (cmpeq gives -1) for at most 255
  // steps of 16 bytes, then summed across lanes.
  const __m128i needle = _mm_set1_epi8(static_cast<char>(b));
  while (at + 16 <= n) {
    __m128i lanes = _mm_setzero_si128();
    for (int k = 0; k < 255 && at + 16 <= n; ++k, at += 16) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + at));
      lanes = _mm_sub_epi8(lanes, _mm_cmpeq_epi8(v, needle));
    }
    const __m128i sums = _mm_sad_epu8(lanes, _mm_setzero_si128());
    count += static_cast<uint64_t>(_mm_cvtsi128_si64(sums)) +
             static_cast<uint64_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(sums, sums)));
  }
#endif
  for (; at < n; ++at) count += p[at] == b;
  return count;
}

}  // namespace gsort
