#include "src/keys/key_layout.h"

#include <cstring>

#include "src/core/errors.h"

namespace gsort {
namespace {

struct TypeName {
  const char* name;
  KeyKind kind;
  uint32_t length;
};

constexpr TypeName kTypeNames[] = {
    {"u8", KeyKind::kUnsigned, 1}, {"u16", KeyKind::kUnsigned, 2}, {"u32", KeyKind::kUnsigned, 4},
    {"u64", KeyKind::kUnsigned, 8}, {"i8", KeyKind::kSigned, 1},   {"i16", KeyKind::kSigned, 2},
    {"i32", KeyKind::kSigned, 4},   {"i64", KeyKind::kSigned, 8},  {"f32", KeyKind::kFloat, 4},
    {"f64", KeyKind::kFloat, 8},
};

enum class Parsed { kOk, kNotANumber, kTooLarge };

// A decimal number of at most 32 bits.
Parsed parse_u32(const std::string& s, uint32_t& out) {
  if (s.empty()) return Parsed::kNotANumber;
  uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return Parsed::kNotANumber;
    if (v <= 0xFFFFFFFFull) v = v * 10 + static_cast<uint64_t>(c - '0');
  }
  if (v > 0xFFFFFFFFull) return Parsed::kTooLarge;
  out = static_cast<uint32_t>(v);
  return Parsed::kOk;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (;;) {
    const size_t pos = s.find(sep, start);
    parts.push_back(s.substr(start, pos - start));
    if (pos == std::string::npos) return parts;
    start = pos + 1;
  }
}

int compare_number(uint64_t a, uint64_t b) { return a < b ? -1 : (a > b ? 1 : 0); }

int compare_bytes(const uint8_t* a, const uint8_t* b, size_t n, bool descending) {
  const int c = std::memcmp(a, b, n);
  return descending ? -c : c;
}

// Compares the fields that end past normalised byte `skip` (the bytes before
// it are known to be equal).
int compare_fields(const std::vector<KeyField>& fields, const uint8_t* a, const uint8_t* b,
                   uint32_t skip) {
  uint32_t field_start = 0;
  for (const KeyField& f : fields) {
    const uint32_t field_end = field_start + f.length;
    if (field_end > skip) {
      int c;
      if (f.kind == KeyKind::kBytes) {
        const uint32_t from = skip > field_start ? skip - field_start : 0;
        c = compare_bytes(a + f.offset + from, b + f.offset + from, f.length - from, f.descending);
      } else {
        c = compare_number(normalised_number(f, a), normalised_number(f, b));
      }
      if (c != 0) return c;
    }
    field_start = field_end;
  }
  return 0;
}

}  // namespace

KeyField parse_key_spec(const std::string& spec) {
  const auto bad = [&](const std::string& why) {
    return UsageError("invalid key '" + spec + "': " + why);
  };
  std::vector<std::string> parts = split(spec, ':');
  if (parts.size() < 2 || parts.size() > 3) {
    // -k 2 or -k 1,1n: GNU sort's text fields, which binary records have not.
    const bool gnu_like = parts.size() == 1 && !spec.empty() && spec[0] >= '0' && spec[0] <= '9';
    throw bad(std::string("expected OFFSET:LENGTH or OFFSET:TYPE[:desc]") +
              (gnu_like ? " (byte offsets, not GNU sort's FIELD[,FIELD])" : ""));
  }
  KeyField f;
  switch (parse_u32(parts[0], f.offset)) {
    case Parsed::kOk: break;
    case Parsed::kNotANumber: throw bad("offset '" + parts[0] + "' is not a number");
    case Parsed::kTooLarge: throw bad("offset '" + parts[0] + "' is too large (at most 4294967295)");
  }
  if (parts.size() == 3) {
    if (parts[2] != "desc") throw bad("unknown modifier '" + parts[2] + "' (only 'desc' is known)");
    f.descending = true;
  }
  const std::string& type = parts[1];
  if (!type.empty() && type[0] >= '0' && type[0] <= '9') {
    const Parsed length = parse_u32(type, f.length);
    if (length == Parsed::kTooLarge) throw bad("length '" + type + "' is too large (at most 4294967295)");
    if (length != Parsed::kOk || f.length == 0) throw bad("length '" + type + "' must be a positive number");
    f.kind = KeyKind::kBytes;
    return f;
  }
  std::string base = type;
  if (base.size() > 2 && base.compare(base.size() - 2, 2, "be") == 0) {
    f.big_endian = true;
    base.resize(base.size() - 2);
  }
  for (const TypeName& t : kTypeNames) {
    if (base == t.name) {
      f.kind = t.kind;
      f.length = t.length;
      if (t.length == 1) f.big_endian = false;  // one byte has no byte order
      return f;
    }
  }
  throw bad("unknown type '" + type +
            "' (expected a byte count or one of u8 u16 u32 u64 i8 i16 i32 i64 f32 f64, optionally with 'be')");
}

KeyLayout::KeyLayout(std::vector<KeyField> fields, uint32_t record_size, bool reverse)
    : fields_(std::move(fields)), record_size_(record_size), width_(0) {
  if (fields_.empty()) throw UsageError("at least one key field is required");
  for (KeyField& f : fields_) {
    if (uint64_t{f.offset} + f.length > record_size) {
      throw UsageError("key '" + describe_key_field(f) + "' reaches past the end of the " +
                       std::to_string(record_size) + "-byte record");
    }
    if (reverse) f.descending = !f.descending;
    const uint64_t width = uint64_t{width_} + f.length;
    if (width > 0xFFFFFFFFull) throw UsageError("the key is too wide");
    width_ = static_cast<uint32_t>(width);
  }
  const KeyField& first = fields_.front();
  leading_bytes8_ = first.kind == KeyKind::kBytes && !first.descending && first.length >= 8;
  // A leading number that fills the first word, or is the whole key.
  if (first.kind != KeyKind::kBytes && (first.length == 8 || fields_.size() == 1)) {
    leading_number_shift_ = static_cast<int>(64 - 8 * first.length);
  }
}

KeyLayout KeyLayout::whole_record(uint32_t record_size, bool reverse) {
  KeyField f;
  f.offset = 0;
  f.length = record_size;
  f.kind = KeyKind::kBytes;
  return KeyLayout({f}, record_size, reverse);
}

void KeyLayout::normalise(const uint8_t* record, uint8_t* out) const {
  normalise_key_range(fields_.data(), static_cast<int>(fields_.size()), record, 0, width_, out);
}

uint64_t KeyLayout::prefix(const uint8_t* record) const {
  if (leading_bytes8_) {
    uint64_t v;
    std::memcpy(&v, record + fields_.front().offset, 8);
    return __builtin_bswap64(v);
  }
  if (leading_number_shift_ >= 0) {
    const KeyField& f = fields_.front();
    if (f.length == 8) {
      // One load instead of normalised_number's byte loop (the partition's classify calls this per record).
      uint64_t v;
      std::memcpy(&v, record + f.offset, 8);
      if (f.big_endian == (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)) v = __builtin_bswap64(v);
      return normalised_loaded_number(f, v);
    }
    return normalised_number(f, record) << leading_number_shift_;
  }
  return normalised_key_word(fields_.data(), static_cast<int>(fields_.size()), record, 0);
}

int KeyLayout::compare(const uint8_t* a, const uint8_t* b) const {
  return compare_fields(fields_, a, b, 0);
}

int KeyLayout::compare_after_prefix(const uint8_t* a, const uint8_t* b) const {
  if (width_ <= 8) return 0;
  return compare_fields(fields_, a, b, 8);
}

std::string describe_key_field(const KeyField& f) {
  std::string s = std::to_string(f.offset) + ":";
  if (f.kind == KeyKind::kBytes) {
    s += std::to_string(f.length);
  } else {
    s += f.kind == KeyKind::kUnsigned ? "u" : (f.kind == KeyKind::kSigned ? "i" : "f");
    s += std::to_string(8 * f.length);
    if (f.big_endian) s += "be";
  }
  if (f.descending) s += ":desc";
  return s;
}

}  // namespace gsort
