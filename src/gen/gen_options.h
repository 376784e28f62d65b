// What gsort-gen was asked to write: plain data parsed from the command line.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/gen/distribution.h"
#include "src/keys/key_field.h"

namespace gsort::gen {

enum class RecordFormat {
  kRaw,      // --record-size and --key: any fixed-size layout
  kGensort,  // the Sort Benchmark's 100-byte records (gensort_generator.h)
  kLogs,     // text lines: log-like (text_generator.h)
  kCsv,      // text lines: CSV (text_generator.h)
};

// Whether the format writes text lines of varying length (--records counts lines).
inline bool is_text_format(RecordFormat f) { return f == RecordFormat::kLogs || f == RecordFormat::kCsv; }

struct GenOptions {
  uint64_t records = 0;
  uint64_t seed = 1;
  std::string output = "-";  // "-" is standard output

  RecordFormat format = RecordFormat::kRaw;
  bool ascii = false;         // gensort only: printable lines ending in \r\n
  uint32_t record_size = 0;   // 100 for gensort
  std::vector<KeyField> keys; // kRaw; empty means the whole record as bytes

  Distribution distribution = Distribution::kUniform;
  uint64_t distinct = 16;      // kFew: how many distinct keys
  bool float_specials = true;  // kUniform: mix NaN, ±inf, ±0, subnormals into float keys
};

// Parses the command line. Returns false when --help or --version was
// printed and there is nothing to generate; throws UsageError otherwise.
bool parse_gen_options(int argc, char** argv, GenOptions& out);

}  // namespace gsort::gen
