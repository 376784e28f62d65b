// --debug's output: each line as GNU sort shows it (tabs as '>', ended by
// a newline, also under -z), then one line per key underlining the part
// the key compares, in the columns it takes on a terminal ('^ no match for
// key' where that part is empty), then, where the last-resort comparison
// applies, the whole line underlined. Stands where the output's encoder
// stands: the destination's writer hands it the sorted lines' bytes.
#pragma once

#include <cstdint>
#include <string>

#include "io/codec/output_encoder.h"
#include "io/file/file.h"
#include "src/keys/line_spec.h"

namespace gsort {

class DebugAnnotator : public OutputEncoder {
 public:
  DebugAnnotator(const LineSpec& spec, File& file) : spec_(spec), file_(file) {}
  void write(const uint8_t* data, size_t n) override;
  void finish() override;
  uint64_t bytes_out() const override { return bytes_out_; }

 private:
  void annotate(const uint8_t* line, uint64_t len);
  void flush();

  const LineSpec spec_;
  File& file_;
  std::string partial_;  // a line whose end is still to come
  std::string out_;
  uint64_t bytes_out_ = 0;
};

// The marks of one line (no terminator) under `spec`, as annotate writes
// them after the line: for tests.
std::string debug_marks(const LineSpec& spec, const uint8_t* line, uint64_t len);

}  // namespace gsort
