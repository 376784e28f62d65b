// An independent reference for gsort's output: std::stable_sort of record
// indices with a comparator written from the spec, not from gsort's
// normalisation code. Numeric fields are decoded to integers and floats and
// compared as values (floats in IEEE 754 totalOrder), so a bug in the shared
// byte-normalisation trick cannot hide in both places.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "tests/support/rng.h"  // most users of the reference also make data

namespace gsort {
struct Options;  // gsort/gsort.h
}

namespace gsort_test {

enum class RefKind { kBytes, kUnsigned, kSigned, kFloat };

// One --key field.
struct RefKey {
  uint32_t offset = 0;
  uint32_t length = 0;  // bytes: any >= 1; numbers: 1, 2, 4, 8 (floats 4, 8)
  RefKind kind = RefKind::kBytes;
  bool big_endian = false;
  bool descending = false;

  // The --key argument that asks gsort for this field: "3:7", "8:u32be:desc".
  std::string spec() const;
};

struct RefSpec {
  uint32_t record_size = 1;
  std::vector<RefKey> keys;  // empty: the whole record as bytes
  bool reverse = false;
  bool unique = false;

  // gsort arguments for this spec: --record-size, --key..., -r, -u.
  std::vector<std::string> args() const;
  // The library's options for it (record_size, keys, reverse, unique), the
  // others at their defaults.
  gsort::Options options() const;
};

// <0, 0, >0 as record a sorts before, with, after record b under spec
// (reverse included, unique ignored).
int compare_records(const uint8_t* a, const uint8_t* b, const RefSpec& spec);

// What gsort must write for this input (all inputs concatenated): a stable
// sort, then with unique the first record of each run of equal keys.
std::string reference_sort(const std::string& data, const RefSpec& spec);

// The same order as indices into data: position i of the output holds
// input record reference_order(...)[i] (unique ignored).
std::vector<uint32_t> reference_order(const uint8_t* records, uint64_t count, const RefSpec& spec);

// Index of the first record that sorts before its predecessor, or npos.
size_t first_disorder(const std::string& data, const RefSpec& spec);

// "" when actual == expected; else a short description of the first
// difference (sizes, first differing record, a hex excerpt of both).
std::string describe_difference(const std::string& actual, const std::string& expected,
                                uint32_t record_size);

// IEEE 754 totalOrder on the bit patterns of binary32/binary64 values.
int total_order_f32(uint32_t a_bits, uint32_t b_bits);
int total_order_f64(uint64_t a_bits, uint64_t b_bits);

}  // namespace gsort_test
