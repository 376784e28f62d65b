#include "src/gen/gensort_generator.h"

#include <cstring>

namespace gsort::gen {
namespace {

constexpr uint32_t kKeyBytes = 10;
constexpr uint32_t kPrintableFirst = ' ';
constexpr uint32_t kPrintableCount = '~' - ' ' + 1;  // 95
constexpr char kHex[] = "0123456789ABCDEF";

KeyDigitsParams key_params(const GenOptions& o) {
  KeyDigitsParams p;
  p.distribution = o.distribution;
  p.width = kKeyBytes;
  p.radix = o.ascii ? kPrintableCount : 256;
  p.records = o.records;
  p.distinct = o.distinct;
  p.seed = o.seed;
  return p;
}

// The row number is 128 bits in gensort; ours fit in the low 64.
void write_row_hex(uint8_t* out, uint64_t row) {
  std::memset(out, '0', 16);
  for (int i = 31; i >= 16; --i, row >>= 4) out[i] = static_cast<uint8_t>(kHex[row & 15]);
}

void write_filler(uint8_t* out, int digits, uint64_t random) {
  for (int d = 0; d < digits; ++d, random >>= 4) std::memset(out + 4 * d, kHex[random & 15], 4);
}

}  // namespace

GensortGenerator::GensortGenerator(const GenOptions& options)
    : ascii_(options.ascii), keys_(key_params(options)), filler_rng_(options.seed, Stream::kFiller) {}

void GensortGenerator::generate(uint8_t* out, size_t count) {
  uint8_t key[kKeyBytes];
  for (size_t i = 0; i < count; ++i, ++row_) {
    keys_.next(row_, key);
    uint8_t* record = out + i * 100;
    if (ascii_) {
      write_ascii(record, key);
    } else {
      write_binary(record, key);
    }
  }
}

void GensortGenerator::write_binary(uint8_t* r, const uint8_t* key) {
  std::memcpy(r, key, kKeyBytes);
  r[10] = 0x00;
  r[11] = 0x11;
  write_row_hex(r + 12, row_);
  r[44] = 0x88;
  r[45] = 0x99;
  r[46] = 0xAA;
  r[47] = 0xBB;
  write_filler(r + 48, 12, filler_rng_.next());
  r[96] = 0xCC;
  r[97] = 0xDD;
  r[98] = 0xEE;
  r[99] = 0xFF;
}

void GensortGenerator::write_ascii(uint8_t* r, const uint8_t* key) {
  for (uint32_t i = 0; i < kKeyBytes; ++i) r[i] = static_cast<uint8_t>(kPrintableFirst + key[i]);
  r[10] = r[11] = ' ';
  write_row_hex(r + 12, row_);
  r[44] = r[45] = ' ';
  write_filler(r + 46, 13, filler_rng_.next());
  r[98] = '\r';
  r[99] = '\n';
}

}  // namespace gsort::gen
