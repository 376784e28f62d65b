// A plain run read in order from a pipe: the output of --compress-program's
// decompressor (io/codec/compress_program.h), which gives back the run's
// bytes as its writer wrote them. A pipe cannot seek, so where RunReader
// checks each block against the table at the end of the file before using
// it, this reader sums the blocks as they pass and checks the table when
// it comes, at the end. A damaged run is still an error before the output
// is committed, never a wrong output; a pipe that ends early is first laid
// at the program's door, as sort does: one that failed is the error.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "io/file/file.h"
#include "io/file/record_source.h"
#include "io/run/run_blocks.h"
#include "io/run/run_file.h"

namespace gsort {

class PipedRunReader final : public RecordSource {
 public:
  // `pipe`: the run's bytes from its first (its path() names the run in
  // messages). `at_end`: called once the last byte is read or the pipe
  // ended early (or, its errors ignored, when the reader goes first): waits
  // for the program writing the pipe, and throws where it failed. Throws
  // DataError for a missing or foreign header.
  PipedRunReader(File pipe, uint32_t record_size, const RunIdentity& expected, std::function<void()> at_end);
  ~PipedRunReader() override;
  PipedRunReader(const PipedRunReader&) = delete;
  PipedRunReader& operator=(const PipedRunReader&) = delete;

  std::string name() const override { return pipe_.path(); }
  uint64_t size_hint() const override { return header_.record_count; }
  uint64_t read(uint8_t* buf, uint64_t max_records) override;

 private:
  // Reads the table and checks it, the run's end and the program's exit.
  void finish();
  // Closes the pipe and waits for the program, where finish() did not.
  void abandon() noexcept;
  [[noreturn]] void damaged(const std::string& what) const;
  // The pipe ended before the run did: the program's failure where it
  // failed (at_end throws), else the run is damaged.
  [[noreturn]] void ended_early(const std::string& what);

  File pipe_;
  RunHeader header_{};
  uint64_t records_left_ = 0;
  BlockSums sums_;
  std::function<void()> at_end_;
};

}  // namespace gsort
