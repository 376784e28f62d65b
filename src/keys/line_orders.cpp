#include "src/keys/line_orders.h"

#include <locale.h>

#include <cmath>
#include <cstdlib>
#include <cstring>

#include "src/keys/collation.h"
#include "src/keys/line_fields.h"
#include "src/keys/line_image.h"
#include "src/keys/md5.h"
#include "src/keys/version_order.h"

namespace gsort {
namespace {

void put_be(uint8_t* out, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out[i] = static_cast<uint8_t>(v >> (8 * (bytes - 1 - i)));
}

// A finite non-zero x as its exponent and significand, bytes that order
// as |x| does.
void finite_image(long double x, uint8_t* out) {
  int exponent = 0;
  const long double m = std::frexp(std::fabs(x), &exponent);  // [0.5, 1) * 2^exponent
  const long double scaled = std::ldexp(m, 64);
  const uint64_t hi = static_cast<uint64_t>(scaled);
  const uint64_t lo = static_cast<uint64_t>(std::ldexp(scaled - static_cast<long double>(hi), 64));
  put_be(out, static_cast<uint32_t>(exponent) ^ 0x80000000u, 4);
  put_be(out + 4, hi, 8);
  put_be(out + 12, lo, 8);
  if (x < 0) {
    for (int i = 0; i < 20; ++i) out[i] = static_cast<uint8_t>(~out[i]);
  }
}

}  // namespace

KeyBytes transform_key(const LineKey& key, const uint8_t* bytes, uint64_t len, std::string& buf) {
  if (key.keep == kKeepAll && !key.fold) return KeyBytes{bytes, len};
  if (buf.size() < len) buf.resize(len);  // grown once a thread, then written in place
  uint8_t* const start = reinterpret_cast<uint8_t*>(&buf[0]);
  uint8_t* out = start;
  if (key.keep == kKeepAll) {
    for (uint64_t i = 0; i < len; ++i) out[i] = fold_key_byte(key, bytes[i]);
    out += len;
  } else {
    for (uint64_t i = 0; i < len; ++i) {
      *out = key.fold ? fold_key_byte(key, bytes[i]) : bytes[i];
      out += keeps_byte(key, bytes[i]);
    }
  }
  return KeyBytes{start, static_cast<uint64_t>(out - start)};
}

namespace {

// strtold over a string: the key up to its end or its first NUL, as GNU
// sort's copy of it ends there; in the locale's LC_NUMERIC where `rules`
// have one (GNU sort runs in its locale).
long double read_general(const std::string& text, char** end, const LocaleRules* rules) {
  if (rules != nullptr && rules->numeric != nullptr) {
    return strtold_l(text.c_str(), end, static_cast<locale_t>(rules->numeric));
  }
  return std::strtold(text.c_str(), end);
}

}  // namespace

uint64_t general_number_end(const uint8_t* key, uint64_t len, const LocaleRules* rules) {
  const std::string text(reinterpret_cast<const char*>(key), len);
  char* end = nullptr;
  (void)read_general(text, &end, rules);
  return static_cast<uint64_t>(end - text.c_str());
}

uint64_t general_image(const uint8_t* key, uint64_t len, uint8_t out[kGeneralImageBytes], const LocaleRules* rules) {
  const std::string text(reinterpret_cast<const char*>(key), len);
  char* end = nullptr;
  const long double x = read_general(text, &end, rules);
  std::memset(out, 0, kGeneralImageBytes);
  if (end == text.c_str()) return 1;  // no number: class 0
  if (std::isnan(x)) {
    out[0] = std::signbit(x) ? 1 : 2;
    return 1;
  }
  if (std::isinf(x)) {
    out[0] = x < 0 ? 3 : 7;
    return 1;
  }
  if (x == 0) {
    out[0] = 5;
    return 1;
  }
  out[0] = x < 0 ? 4 : 6;
  finite_image(x, out + 1);
  return kGeneralImageBytes;
}

void random_digest(const uint8_t seed[kRandomSeedBytes], const uint8_t* key, uint64_t len, uint8_t out[16]) {
  Md5 md5;
  md5.update(seed, kRandomSeedBytes);
  md5.update(key, len);
  const Md5Digest d = md5.finish();
  std::memcpy(out, d.data(), d.size());
}

namespace {

// fold_upper's bytes, as a table (the -f of a locale whose case rules are C's).
const uint8_t* ascii_upper() {
  static const struct Table {
    uint8_t b[256];
    Table() {
      for (int c = 0; c < 256; ++c) b[c] = fold_upper(static_cast<uint8_t>(c));
    }
  } table;
  return table.b;
}

// A collated key's head from a prefix of its bytes where that is enough:
// a long line's -f or -d copy costs more than its head (the whole of a
// log line folded, for 21 bytes of image). The prefix's first level is
// the key's but for its last few characters (collation.h), so it is taken
// where it passes the head by kMargin bytes; else the whole key is read.
uint64_t collated_head(const LineImageSpec& spec, const uint8_t* key, uint64_t len, uint8_t* head,
                       std::string& buf) {
  constexpr uint64_t kPrefix = 128, kMargin = 8;
  if (spec.key.fold && spec.key.keep == kKeepAll) {  // -f alone: no copy where case is not in the head
    uint64_t written = 0;
    const uint8_t* fold = spec.key.rules != nullptr ? spec.key.rules->upper : ascii_upper();
    if (spec.collation->head_folded(key, len, fold, head, kImageHeadBytes, &written)) return written;
  }
  // The bytes as they are: the table's head reads no further than it
  // needs, and strxfrm's (collation.cpp) takes prefixes of its own.
  if (!spec.key.fold && spec.key.keep == kKeepAll) return spec.collation->head(key, len, head, kImageHeadBytes);
  if (len > kPrefix) {
    uint64_t take = kPrefix;
    while (take > 0 && (key[take] & 0xC0) == 0x80) --take;  // not into a UTF-8 character
    const KeyBytes k = transform_key(spec.key, key, take, buf);
    uint8_t longer[kImageHeadBytes + kMargin];
    if (spec.collation->head(k.data, k.len, longer, sizeof longer) == sizeof longer) {
      std::memcpy(head, longer, kImageHeadBytes);
      return kImageHeadBytes;
    }
  }
  const KeyBytes k = transform_key(spec.key, key, len, buf);
  return spec.collation->head(k.data, k.len, head, kImageHeadBytes);
}

}  // namespace

uint64_t host_image_head(const LineImageSpec& spec, const uint8_t* key, uint64_t len, uint8_t* head) {
  thread_local std::string buf;
  if (line_order(spec.key) == LineOrder::kCollate) return collated_head(spec, key, len, head, buf);
  const KeyBytes k = transform_key(spec.key, key, len, buf);
  if (line_order(spec.key) == LineOrder::kGeneral) return general_image(k.data, k.len, head, spec.key.rules);
  if (line_order(spec.key) == LineOrder::kRandom) {
    if (spec.collation != nullptr) {  // in a locale, GNU sort hashes the key's collation image
      thread_local std::string image;
      image.clear();
      spec.collation->transform_segments(k.data, k.len, image);
      random_digest(spec.seed, reinterpret_cast<const uint8_t*>(image.data()), image.size(), head);
    } else {
      random_digest(spec.seed, k.data, k.len, head);
    }
    return 16;
  }
  if (line_order(spec.key) == LineOrder::kVersion) return version_image(k.data, k.len, head, kImageHeadBytes);
  return 0;
}

}  // namespace gsort
