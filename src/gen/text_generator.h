// Text lines for gsort's line mode and its benchmarks (issue 31), one line
// at a time, each ending in '\n', from the seed alone:
//   --format logs  log-like lines of 20 to 300 bytes (uniform): a timestamp
//                  in March 2024 to the millisecond, a level, a component,
//                  user= and took= fields, then words of a message;
//   --format csv   id,word,integer,decimal: an id below 10^9, one of eight
//                  words, an integer in [-10^6, 10^6), a decimal in [0, 1000)
//                  with three places (for -t, -k3,3n and -t, -k2,2 -k1,1n).
#pragma once

#include <cstddef>
#include <cstdint>

#include "src/gen/gen_options.h"
#include "src/gen/prng.h"

namespace gsort::gen {

class TextGenerator {
 public:
  // The longest line, its newline included.
  static constexpr size_t kMaxLine = 320;

  explicit TextGenerator(const GenOptions& options);
  // Writes the next line at `out` (room for kMaxLine bytes); returns its bytes.
  size_t line(uint8_t* out);

 private:
  size_t log_line(char* out);
  size_t csv_line(char* out);

  RecordFormat format_;
  Xoshiro256ss rng_;
};

}  // namespace gsort::gen
