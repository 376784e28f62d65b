#include "src/keys/ascii_heads.h"

#include <immintrin.h>

namespace gsort {
namespace {

// The most a head may ask for here (table_head reads two characters past
// the head's last, all within one 64-byte window).
constexpr uint64_t kMostCap = 120;

#define GSORT_ASCII_HEADS_TARGET __attribute__((target("avx512f,avx512bw,avx512vbmi,avx512vbmi2,bmi,bmi2,popcnt")))

// Byte k of a mask of bytes (64 each), the one-bit-a-byte masks of a
// text's characters' first and second weight bytes laid out as the bytes
// they give: first, second, first, second...
GSORT_ASCII_HEADS_TARGET uint64_t interleaved(uint32_t first, uint32_t second) {
  return _pdep_u64(first, 0x5555555555555555ull) | _pdep_u64(second, 0xAAAAAAAAAAAAAAAAull);
}

// Each byte's entry of a table of 128, by its low 7 bits.
GSORT_ASCII_HEADS_TARGET __m512i look_up(const uint8_t* table, __m512i bytes) {
  return _mm512_permutex2var_epi8(_mm512_loadu_si512(table), bytes, _mm512_loadu_si512(table + 64));
}

// The first n bytes of a mask of 64.
GSORT_ASCII_HEADS_TARGET __mmask64 first_bytes(uint64_t n) { return n >= 64 ? ~__mmask64{0} : (__mmask64{1} << n) - 1; }

GSORT_ASCII_HEADS_TARGET bool ascii_head(const uint8_t* const tables[3], const uint8_t* text, uint64_t len,
                                         uint8_t* out, uint64_t cap, uint64_t* written) {
  const uint64_t window = len < 64 ? len : 64;
  const __mmask64 in = first_bytes(window);
  const __m512i bytes = _mm512_maskz_loadu_epi8(in, text);  // (bytes past the text are not read)
  const __m512i first = look_up(tables[0], bytes), second = look_up(tables[1], bytes);
  const __m512i simple = look_up(tables[2], bytes);
  const __mmask64 plain = _mm512_test_epi8_mask(simple, simple) & ~_mm512_movepi8_mask(bytes) & in;
  // The characters before the first that is not plain (or the window's end).
  const uint64_t known = _tzcnt_u64(~plain);
  const __mmask64 before = first_bytes(known);
  const __mmask64 has_first = _mm512_test_epi8_mask(first, first) & before;
  const __mmask64 has_second = _mm512_test_epi8_mask(second, second) & before;
  const uint64_t lo = interleaved(static_cast<uint32_t>(has_first), static_cast<uint32_t>(has_second));
  const uint64_t hi = interleaved(static_cast<uint32_t>(has_first >> 32), static_cast<uint32_t>(has_second >> 32));
  const uint64_t in_lo = static_cast<uint64_t>(_mm_popcnt_u64(lo));
  const uint64_t count = in_lo + static_cast<uint64_t>(_mm_popcnt_u64(hi));
  uint64_t take = 0;
  if (count >= cap) {
    // table_head reads the character that gives the head's last byte (q)
    // and two past it, or to the text's end.
    const uint64_t byte_at = cap <= in_lo ? _tzcnt_u64(_pdep_u64(uint64_t{1} << (cap - 1), lo))
                                          : 64 + _tzcnt_u64(_pdep_u64(uint64_t{1} << (cap - 1 - in_lo), hi));
    const uint64_t q = byte_at / 2;
    const uint64_t last_read = q + 2 < len ? q + 2 : len - 1;
    if (last_read >= known) return false;
    take = cap;
  } else {
    if (known < len) return false;  // the head may go on past what is known here
    take = count;                   // the whole text: its every weight
  }
  // The weights in the text's order: characters 0-31, then 32-63.
  alignas(64) static constexpr uint8_t kLow[64] = {
      0,  64, 1,  65, 2,  66, 3,  67, 4,  68, 5,  69, 6,  70, 7,  71, 8,  72, 9,  73, 10, 74,
      11, 75, 12, 76, 13, 77, 14, 78, 15, 79, 16, 80, 17, 81, 18, 82, 19, 83, 20, 84, 21, 85,
      22, 86, 23, 87, 24, 88, 25, 89, 26, 90, 27, 91, 28, 92, 29, 93, 30, 94, 31, 95};
  const __m512i low = _mm512_load_si512(kLow);
  const __m512i high = _mm512_add_epi8(low, _mm512_set1_epi8(32));
  const __m512i head_lo = _mm512_maskz_compress_epi8(lo, _mm512_permutex2var_epi8(first, low, second));
  _mm512_mask_storeu_epi8(out, first_bytes(take < in_lo ? take : in_lo), head_lo);
  if (take > in_lo) {
    const __m512i head_hi = _mm512_maskz_compress_epi8(hi, _mm512_permutex2var_epi8(first, high, second));
    _mm512_mask_storeu_epi8(out + in_lo, first_bytes(take - in_lo), head_hi);
  }
  *written = take;
  return true;
}

bool cpu_runs_it() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("avx512vbmi2") &&
         __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt");
}

}  // namespace

AsciiHeads::AsciiHeads(const CharacterWeights ascii[128]) : usable_(cpu_runs_it()) {
  for (int b = 0; b < 128; ++b) {
    const CharacterWeights& w = ascii[b];
    simple_[b] = w.length <= 2 ? 1 : 0;  // (a NUL's, a character not held and longer weights are not)
    first_[b] = w.length >= 1 && w.length <= 2 ? w.bytes[0] : 0;
    second_[b] = w.length == 2 ? w.bytes[1] : 0;
  }
}

bool AsciiHeads::head(const uint8_t* text, uint64_t len, uint8_t* out, uint64_t cap, uint64_t* written) const {
  if (cap == 0 || cap > kMostCap || len == 0) return false;
  const uint8_t* const tables[3] = {first_, second_, simple_};
  return ascii_head(tables, text, len, out, cap, written);
}

}  // namespace gsort
