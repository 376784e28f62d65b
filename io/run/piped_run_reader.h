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

// The program writing the pipe; exactly one of the two is called, once.
struct PipeWriter {
  // Once the last byte is read, or the pipe ended early: waits for the
  // program, and throws where it failed.
  std::function<void()> wait;
  // When the reader goes first (a damaged run, a failure elsewhere): the
  // rest of its output is not wanted, and it is ended.
  std::function<void()> stop;
};

class PipedRunReader final : public RecordSource {
 public:
  // `pipe`: the run's bytes from its first (its path() names the run in
  // messages). Throws DataError for a missing or foreign header.
  PipedRunReader(File pipe, uint32_t record_size, const RunIdentity& expected, PipeWriter writer);
  ~PipedRunReader() override;
  PipedRunReader(const PipedRunReader&) = delete;
  PipedRunReader& operator=(const PipedRunReader&) = delete;

  std::string name() const override { return pipe_.path(); }
  uint64_t size_hint() const override { return header_.record_count; }
  uint64_t read(uint8_t* buf, uint64_t max_records) override;

 private:
  // Reads the table and checks it, the run's end and the program's exit.
  void finish();
  // Closes the pipe and stops the program, where finish() did not wait.
  void abandon() noexcept;
  [[noreturn]] void damaged(const std::string& what) const;
  // The pipe ended before the run did: the program's failure where it
  // failed, else the run is damaged.
  [[noreturn]] void ended_early(const std::string& what);
  // Waits for the program (once).
  void wait_for_writer();

  File pipe_;
  RunHeader header_{};
  uint64_t records_left_ = 0;
  BlockSums sums_;
  PipeWriter writer_;
  bool writer_done_ = false;  // waited for or stopped
};

}  // namespace gsort
