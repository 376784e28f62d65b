#include "tests/support/reference_sort.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <numeric>

#include "gsort/gsort.h"

namespace gsort_test {

namespace {

uint64_t load_unsigned(const uint8_t* p, uint32_t length, bool big_endian) {
  uint64_t v = 0;
  for (uint32_t i = 0; i < length; ++i) {
    const uint32_t byte_index = big_endian ? i : length - 1 - i;
    v = (v << 8) | p[byte_index];
  }
  return v;
}

int64_t sign_extend(uint64_t v, uint32_t length) {
  const unsigned unused = 64 - 8 * length;
  // Two's complement: shift the field's sign bit into bit 63, then back.
  return static_cast<int64_t>(v << unused) >> unused;
}

template <typename T>
int three_way(T a, T b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

// totalOrder for one format, given its bits split as sign / NaN-ness, the
// value for non-NaNs, and the payload (the significand bits) for NaNs.
template <typename Float>
int total_order(bool a_neg, bool b_neg, Float a, Float b, uint64_t a_payload,
                uint64_t b_payload) {
  const bool a_nan = std::isnan(a);
  const bool b_nan = std::isnan(b);
  if (a_nan || b_nan) {
    // A negative NaN is below everything, a positive one above everything.
    const int a_rank = a_nan ? (a_neg ? -1 : 1) : 0;
    const int b_rank = b_nan ? (b_neg ? -1 : 1) : 0;
    if (a_rank != b_rank) return three_way(a_rank, b_rank);
    // Two NaNs of one sign: a larger payload lies further from zero.
    const int by_payload = three_way(a_payload, b_payload);
    return a_neg ? -by_payload : by_payload;
  }
  if (a < b) return -1;
  if (b < a) return 1;
  // Equal as numbers: only -0.0 against +0.0 still differs.
  if (a_neg != b_neg) return a_neg ? -1 : 1;
  return 0;
}

int compare_field(const uint8_t* a, const uint8_t* b, const RefKey& key) {
  const uint8_t* pa = a + key.offset;
  const uint8_t* pb = b + key.offset;
  switch (key.kind) {
    case RefKind::kBytes: {
      const int c = std::memcmp(pa, pb, key.length);
      return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
    case RefKind::kUnsigned:
      return three_way(load_unsigned(pa, key.length, key.big_endian),
                       load_unsigned(pb, key.length, key.big_endian));
    case RefKind::kSigned:
      return three_way(sign_extend(load_unsigned(pa, key.length, key.big_endian), key.length),
                       sign_extend(load_unsigned(pb, key.length, key.big_endian), key.length));
    case RefKind::kFloat: {
      const uint64_t ba = load_unsigned(pa, key.length, key.big_endian);
      const uint64_t bb = load_unsigned(pb, key.length, key.big_endian);
      return key.length == 4
                 ? total_order_f32(static_cast<uint32_t>(ba), static_cast<uint32_t>(bb))
                 : total_order_f64(ba, bb);
    }
  }
  return 0;
}

std::string hex_excerpt(const std::string& data, size_t begin, size_t length) {
  std::string out;
  char buf[4];
  const size_t end = std::min(data.size(), begin + std::min<size_t>(length, 48));
  for (size_t i = begin; i < end; ++i) {
    std::snprintf(buf, sizeof buf, "%02x", static_cast<unsigned char>(data[i]));
    out += buf;
  }
  if (begin + length > end) out += "...";
  return out;
}

}  // namespace

std::string RefKey::spec() const {
  std::string s = std::to_string(offset) + ":";
  switch (kind) {
    case RefKind::kBytes:
      s += std::to_string(length);
      break;
    case RefKind::kUnsigned:
      s += "u" + std::to_string(8 * length);
      break;
    case RefKind::kSigned:
      s += "i" + std::to_string(8 * length);
      break;
    case RefKind::kFloat:
      s += "f" + std::to_string(8 * length);
      break;
  }
  if (kind != RefKind::kBytes && big_endian) s += "be";
  if (descending) s += ":desc";
  return s;
}

std::vector<std::string> RefSpec::args() const {
  std::vector<std::string> a = {"--record-size", std::to_string(record_size)};
  for (const RefKey& k : keys) {
    a.push_back("--key");
    a.push_back(k.spec());
  }
  if (reverse) a.push_back("-r");
  if (unique) a.push_back("-u");
  return a;
}

gsort::Options RefSpec::options() const {
  gsort::Options o;
  o.record_size = record_size;
  for (const RefKey& k : keys) o.keys.push_back(k.spec());
  o.reverse = reverse;
  o.unique = unique;
  return o;
}

int total_order_f32(uint32_t a_bits, uint32_t b_bits) {
  float a, b;
  std::memcpy(&a, &a_bits, sizeof a);
  std::memcpy(&b, &b_bits, sizeof b);
  return total_order<float>(a_bits >> 31, b_bits >> 31, a, b, a_bits & 0x7FFFFFu,
                            b_bits & 0x7FFFFFu);
}

int total_order_f64(uint64_t a_bits, uint64_t b_bits) {
  double a, b;
  std::memcpy(&a, &a_bits, sizeof a);
  std::memcpy(&b, &b_bits, sizeof b);
  const uint64_t payload = (uint64_t{1} << 52) - 1;
  return total_order<double>(a_bits >> 63, b_bits >> 63, a, b, a_bits & payload,
                             b_bits & payload);
}

int compare_records(const uint8_t* a, const uint8_t* b, const RefSpec& spec) {
  int c = 0;
  if (spec.keys.empty()) {
    const int m = std::memcmp(a, b, spec.record_size);
    c = m < 0 ? -1 : (m > 0 ? 1 : 0);
  } else {
    for (const RefKey& key : spec.keys) {
      c = compare_field(a, b, key);
      if (key.descending) c = -c;
      if (c != 0) break;
    }
  }
  return spec.reverse ? -c : c;
}

std::vector<uint32_t> reference_order(const uint8_t* records, uint64_t count, const RefSpec& spec) {
  const size_t rs = spec.record_size;
  std::vector<uint32_t> order(count);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) {
    return compare_records(records + size_t{x} * rs, records + size_t{y} * rs, spec) < 0;
  });
  return order;
}

std::string reference_sort(const std::string& data, const RefSpec& spec) {
  const size_t rs = spec.record_size;
  const auto* base = reinterpret_cast<const uint8_t*>(data.data());
  const std::vector<uint32_t> order = reference_order(base, data.size() / rs, spec);
  std::string out;
  out.reserve(data.size());
  const uint8_t* previous = nullptr;
  for (const uint32_t i : order) {
    const uint8_t* record = base + i * rs;
    if (spec.unique && previous && compare_records(previous, record, spec) == 0) continue;
    out.append(reinterpret_cast<const char*>(record), rs);
    previous = record;
  }
  return out;
}

size_t first_disorder(const std::string& data, const RefSpec& spec) {
  const size_t rs = spec.record_size;
  const auto* base = reinterpret_cast<const uint8_t*>(data.data());
  for (size_t i = 1; i < data.size() / rs; ++i) {
    if (compare_records(base + (i - 1) * rs, base + i * rs, spec) > 0) return i;
  }
  return std::string::npos;
}

std::string describe_difference(const std::string& actual, const std::string& expected,
                                uint32_t record_size) {
  if (actual == expected) return "";
  std::string d = "output has " + std::to_string(actual.size()) + " bytes (" +
                  std::to_string(actual.size() / record_size) + " records), expected " +
                  std::to_string(expected.size()) + " bytes (" +
                  std::to_string(expected.size() / record_size) + " records)";
  const size_t common = std::min(actual.size(), expected.size());
  size_t i = 0;
  while (i < common && actual[i] == expected[i]) ++i;
  if (i < common || actual.size() != expected.size()) {
    const size_t record = i / record_size;
    const size_t at = record * record_size;
    d += "; first difference in record " + std::to_string(record) + " (byte " +
         std::to_string(i) + "): got " + hex_excerpt(actual, at, record_size) + " want " +
         hex_excerpt(expected, at, record_size);
  }
  return d;
}

}  // namespace gsort_test
