// Reading the inputs as chunks of whole lines. Each input is read in turn
// (regular files by all threads, compressed ones decoded: io/input_set.h);
// a last line without its terminator gets one, per input, as GNU sort
// gives it (so the next input's first line stays a line of its own). A
// chunk ends at the last terminator that fits; the partial line after it
// is carried into the next chunk. A line longer than `max_line` bytes (its
// terminator included) is a DataError: never cut, never dropped.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "io/input/input_set.h"
#include "src/core/staged_stream.h"
#include "src/core/thread_pool.h"

namespace gsort {

class LineReader {
 public:
  LineReader(const std::vector<std::string>& inputs, uint8_t eol, uint64_t max_line, ThreadPool& pool,
             InputTally* tally, bool drop_read_pages);

  // Fills buf[0, capacity) with whole lines; returns their bytes, 0 at the
  // end of the last input. capacity must exceed max_line.
  uint64_t read_chunk(uint8_t* buf, uint64_t capacity);
  // The whole of a single plain regular input mapped read-only instead of
  // read (no fresh memory zeroed, nothing copied), where it fits `capacity`,
  // ends with a terminator and is not the file that `output_fd` writes (which
  // would change it while it is read): its bytes, which stay mapped while
  // the reader lives, with *bytes their count; null otherwise (read_chunk
  // reads it). Before any read.
  const uint8_t* map_whole(uint64_t capacity, int output_fd, uint64_t* bytes);
  // Throws DataError where the input that map_whole mapped was written
  // since it was opened (MappedInput::check_unchanged): call it after the
  // mapped bytes' last use. Nothing where none was mapped.
  void check_mapped_unchanged() const {
    if (mapped_) mapped_->check_unchanged();
  }
  // Puts chunk[from, end) of the chunk just read back in front of what
  // comes next (the chunk had more lines than the sorter takes).
  void unread(const uint8_t* chunk, uint64_t from, uint64_t end);
  // The input that byte `offset` of the chunk just read came from (for messages).
  std::string source_of(uint64_t offset) const;
  // The DataError for a line longer than max_line() from `source`.
  [[noreturn]] void too_long(const std::string& source) const;
  // Whether nothing is left to read.
  bool done() const { return inputs_done_ && carry_.empty(); }
  // Bytes of the inputs when every one is a plain regular file, else 0.
  uint64_t known_bytes() const { return known_ ? total_ : 0; }
  uint64_t max_line() const { return max_line_; }
  // Called with the chunk's bytes so far as a stream arrives (null: none):
  // the destination is made ready while the first chunk is read.
  void watch_arrivals(std::function<void(uint64_t bytes)> arrived) { arrived_ = std::move(arrived); }

 private:
  // Reads more of the inputs into buf[fill, room); returns the new fill.
  uint64_t fill_from_inputs(uint8_t* buf, uint64_t fill, uint64_t room);
  // Reads the current input, a stream, into buf[fill, room) as it comes,
  // until it ends or fills the room; returns the bytes read.
  uint64_t read_stream(uint8_t* buf, uint64_t fill, uint64_t room);
  // Notes that the chunk's bytes from `offset` on come from `name`.
  void note_source(uint64_t offset, const std::string& name);

  InputSet set_;
  std::vector<InputSet::Opener> openers_;
  size_t next_input_ = 0;
  std::unique_ptr<RecordSource> current_;
  std::string current_name_;
  bool current_has_bytes_ = false;
  uint8_t last_byte_ = 0;
  bool inputs_done_ = false;
  std::vector<uint8_t> carry_;
  std::string carry_source_;
  std::vector<std::pair<uint64_t, std::string>> sources_;  // where each input's bytes begin in the chunk
  uint8_t eol_;
  uint64_t max_line_;
  ThreadPool& pool_;
  bool known_ = false;
  uint64_t total_ = 0;
  std::function<void(uint64_t)> arrived_;
  std::unique_ptr<MappedInput> mapped_;  // map_whole's
  uint64_t chunks_read_ = 0;             // read_chunk's calls, for the test hook
  std::unique_ptr<StagedStream> staged_;  // made at the first stream read
};

}  // namespace gsort
