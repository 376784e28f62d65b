// The destination as the sort's stages write it: into one sink (the output
// file, or its encoder with --compress-output), with -u applied, every
// block shown to --verify's check, and the bytes written counted for the
// progress line. A stage takes a writer when it starts to write the
// destination; one writes at a time.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "io/output/write_behind.h"
#include "src/keys/key_layout.h"
#include "src/output/output_writer.h"
#include "src/verify/output_check.h"

namespace gsort {

class FinalOutput {
 public:
  // block_bytes: each write-behind buffer (the plan's block). unique_by:
  // the layout for -u, or null. check: --verify's, or null.
  FinalOutput(WriteBehind::Sink sink, uint32_t record_size, uint64_t block_bytes, const KeyLayout* unique_by,
              OutputCheck* check);
  FinalOutput(const FinalOutput&) = delete;
  FinalOutput& operator=(const FinalOutput&) = delete;

  std::unique_ptr<OutputWriter> writer();
  uint32_t record_size() const { return rs_; }
  const std::atomic<uint64_t>& written_bytes() const { return written_bytes_; }

 private:
  const WriteBehind::Sink sink_;
  const uint32_t rs_;
  const uint64_t block_bytes_;
  const KeyLayout* const unique_by_;
  OutputCheck* const check_;
  std::atomic<uint64_t> written_bytes_{0};
};

}  // namespace gsort
