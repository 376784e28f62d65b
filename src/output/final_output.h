// The destination as the record sort's stages write it: through its blocks
// (output_blocks.h: one sink, or the output file itself, mapped), with -u
// applied, every block shown to --verify's check, and the bytes
// written counted for the progress line. A stage takes a writer when it
// starts to write the destination; one writer writes it.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "io/output/write_behind.h"
#include "src/keys/key_layout.h"
#include "src/output/mapped_records.h"
#include "src/output/output_blocks.h"
#include "src/output/output_writer.h"
#include "src/verify/output_check.h"

namespace gsort {

class FinalOutput : public OutputBlocks {
 public:
  // block_bytes: each write-behind buffer (the plan's block). unique_by:
  // the layout for -u, or null. check: --verify's, or null.
  FinalOutput(WriteBehind::Sink sink, uint32_t record_size, uint64_t block_bytes, const KeyLayout* unique_by,
              OutputCheck* check)
      : OutputBlocks(std::move(sink), block_bytes), rs_(record_size), unique_by_(unique_by), check_(check) {}

  // A writer of the destination; `bytes`: at most what it will write,
  // where known (0: unknown, which writes through the sink).
  std::unique_ptr<OutputWriter> writer(uint64_t bytes = 0);
  // Or the destination's first `bytes` mapped whole, for a writer that
  // fills it in any order; null where it cannot be mapped (writer() then
  // writes the stream).
  std::unique_ptr<MappedRecords> mapped_records(uint64_t bytes);
  uint32_t record_size() const { return rs_; }

 private:
  const uint32_t rs_;
  const KeyLayout* const unique_by_;
  OutputCheck* const check_;
};

}  // namespace gsort
