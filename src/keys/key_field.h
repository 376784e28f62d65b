// One key field and its normalisation, shared by the CPU and the GPU code.
//
// Normalisation maps a field to bytes whose unsigned lexicographic (memcmp)
// order is the requested order, so that one radix pass over the bytes, or one
// unsigned comparison of a big-endian word, sorts by the key:
//   bytes     copied as they are;
//   unsigned  written big-endian;
//   signed    big-endian with the sign bit flipped;
//   float     IEEE total order: negative values have every bit inverted,
//             positive values the sign bit set, so
//             -NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN;
//   desc      every byte of the normalised field inverted.
#pragma once

#include <cstdint>

#include "src/cuda/host_device.h"


namespace gsort {

enum class KeyKind : uint8_t { kBytes, kUnsigned, kSigned, kFloat };

// Plain data so it can be copied to the GPU as it is.
struct KeyField {
  uint32_t offset = 0;  // byte offset in the record
  uint32_t length = 0;  // bytes; 1, 2, 4 or 8 for numeric kinds
  KeyKind kind = KeyKind::kBytes;
  bool big_endian = false;  // numeric kinds only
  bool descending = false;  // after --reverse has been folded in
};

// The numeric field's value `v` (already loaded), mapped as normalised_number maps it.
GSORT_HD uint64_t normalised_loaded_number(const KeyField& f, uint64_t v) {
  const unsigned bits = 8u * f.length;
  const uint64_t mask = bits == 64 ? ~uint64_t{0} : ((uint64_t{1} << bits) - 1);
  const uint64_t sign = uint64_t{1} << (bits - 1);
  if (f.kind == KeyKind::kSigned) {
    v ^= sign;
  } else if (f.kind == KeyKind::kFloat) {
    v = (v & sign) ? (~v & mask) : (v | sign);
  }
  if (f.descending) v = ~v & mask;
  return v;
}

// The numeric field's value, mapped so that unsigned order is key order.
// Only the low 8*length bits are meaningful.
GSORT_HD uint64_t normalised_number(const KeyField& f, const uint8_t* record) {
  const uint8_t* p = record + f.offset;
  uint64_t v = 0;
  if (f.big_endian) {
    for (uint32_t i = 0; i < f.length; ++i) v = (v << 8) | p[i];
  } else {
    for (uint32_t i = f.length; i-- > 0;) v = (v << 8) | p[i];
  }
  return normalised_loaded_number(f, v);
}

// Writes normalised key bytes [begin, end) of the whole key (all fields
// concatenated) to out[0 .. end-begin). Bytes past the key's width are zero.
GSORT_HD void normalise_key_range(const KeyField* fields, int field_count, const uint8_t* record,
                                  uint32_t begin, uint32_t end, uint8_t* out) {
  uint32_t field_start = 0;
  for (int k = 0; k < field_count && field_start < end; ++k) {
    const KeyField& f = fields[k];
    const uint32_t field_end = field_start + f.length;
    if (field_end > begin) {
      const uint32_t lo = field_start > begin ? field_start : begin;
      const uint32_t hi = field_end < end ? field_end : end;
      if (f.kind == KeyKind::kBytes) {
        const uint8_t* src = record + f.offset + (lo - field_start);
        const uint8_t flip = f.descending ? 0xFF : 0x00;
        for (uint32_t i = lo; i < hi; ++i) out[i - begin] = src[i - lo] ^ flip;
      } else {
        const uint64_t v = normalised_number(f, record);
        for (uint32_t i = lo; i < hi; ++i) {
          const unsigned shift = 8u * (field_end - 1 - i);
          out[i - begin] = static_cast<uint8_t>(v >> shift);
        }
      }
    }
    field_start = field_end;
  }
  for (uint32_t i = field_start > begin ? field_start : begin; i < end; ++i) out[i - begin] = 0;
}

// The w-th 8-byte word of the normalised key as a big-endian integer, so
// that comparing words in order compares keys.
GSORT_HD uint64_t normalised_key_word(const KeyField* fields, int field_count, const uint8_t* record,
                                      uint32_t w) {
  uint8_t bytes[8];
  normalise_key_range(fields, field_count, record, 8 * w, 8 * w + 8, bytes);
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = (v << 8) | bytes[i];
  return v;
}

}  // namespace gsort
