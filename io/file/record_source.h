// A sequential stream of whole records: a run file, or an input file given
// to --merge. The merger reads every source through this. (Records, not
// bytes: a compressed input's bytes come from an InputDecoder,
// io/codec/input_decoder.h, and InputFile cuts them into records.)
#pragma once

#include <cstdint>
#include <string>

namespace gsort {

class RecordSource {
 public:
  virtual ~RecordSource() = default;
  // For messages.
  virtual std::string name() const = 0;
  // Records the source holds in all, when known (else 0): before it reads,
  // the merge sizes its windows by them (larger sources, larger windows).
  virtual uint64_t size_hint() const { return 0; }
  // Reads up to max_records records into buf; returns how many (0 at the
  // end). Validation failures at the end (a checksum) throw DataError.
  virtual uint64_t read(uint8_t* buf, uint64_t max_records) = 0;
};

}  // namespace gsort
