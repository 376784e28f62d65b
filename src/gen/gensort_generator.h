// The Sort Benchmark's 100-byte records, in the layout of its gensort tool.
//
// Binary (gensort):
//   bytes  0-9   key, 10 bytes from --distribution
//   bytes 10-11  0x00 0x11
//   bytes 12-43  the row number as 32 uppercase hex digits
//   bytes 44-47  0x88 0x99 0xAA 0xBB
//   bytes 48-95  filler: 12 random hex digits, each written 4 times
//   bytes 96-99  0xCC 0xDD 0xEE 0xFF
// ASCII (gensort -a), a printable line:
//   bytes  0-9   key, 10 characters ' ' to '~'
//   bytes 10-11  two spaces
//   bytes 12-43  the row number as 32 uppercase hex digits
//   bytes 44-45  two spaces
//   bytes 46-97  filler: 13 random hex digits, each written 4 times
//   bytes 98-99  "\r\n"
// The keys come from our own generator, so they differ from gensort's.
#pragma once

#include "src/gen/key_digits.h"
#include "src/gen/record_generator.h"

namespace gsort::gen {

class GensortGenerator : public RecordGenerator {
 public:
  explicit GensortGenerator(const GenOptions& options);
  uint32_t record_size() const override { return 100; }
  void generate(uint8_t* out, size_t count) override;

 private:
  void write_binary(uint8_t* record, const uint8_t* key);
  void write_ascii(uint8_t* record, const uint8_t* key);

  bool ascii_;
  KeyDigits keys_;
  Xoshiro256ss filler_rng_;
  uint64_t row_ = 0;
};

}  // namespace gsort::gen
