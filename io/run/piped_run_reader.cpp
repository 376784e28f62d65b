#include "io/run/piped_run_reader.h"

#include <utility>

#include "io/file/checksum.h"
#include "io/run/run_header.h"
#include "src/core/errors.h"

namespace gsort {

PipedRunReader::PipedRunReader(File pipe, uint32_t record_size, const RunIdentity& expected, PipeWriter writer)
    : pipe_(std::move(pipe)), sums_(record_size), writer_(std::move(writer)) {
  try {
    if (pipe_.read_full(&header_, sizeof header_) != sizeof header_) ended_early("is truncated (no header)");
    check_run_header(header_, pipe_.path(), record_size, expected);
    if (run_is_compressed(header_)) damaged("holds zstd frames, which a program's runs never do");
    records_left_ = header_.record_count;
    if (records_left_ == 0) finish();
  } catch (...) {
    abandon();
    throw;
  }
}

PipedRunReader::~PipedRunReader() { abandon(); }

void PipedRunReader::abandon() noexcept {
  if (writer_done_) return;
  writer_done_ = true;
  pipe_ = File();
  try {
    writer_.stop();
  } catch (...) {
    // Already failing: the program's end says nothing more.
  }
}

void PipedRunReader::wait_for_writer() {
  if (writer_done_) return;
  writer_done_ = true;
  writer_.wait();
}

uint64_t PipedRunReader::read(uint8_t* buf, uint64_t max_records) {
  const uint64_t want = max_records < records_left_ ? max_records : records_left_;
  if (want == 0) return 0;
  const size_t bytes = static_cast<size_t>(want * header_.record_size);
  if (pipe_.read_full(buf, bytes) != bytes) ended_early("is truncated");
  sums_.update(buf, bytes);
  records_left_ -= want;
  if (records_left_ == 0) finish();
  return want;
}

void PipedRunReader::finish() {
  const std::vector<uint64_t>& sums = sums_.finish();
  std::vector<uint64_t> table(sums.size());
  const size_t bytes = table.size() * sizeof(uint64_t);
  if (pipe_.read_full(table.data(), bytes) != bytes) ended_early("is truncated (its checksum table)");
  if (table != sums) damaged("is damaged (a block does not match its checksum)");
  if (StreamHash::of(table.data(), bytes) != header_.checksum) damaged("is damaged (checksum table)");
  uint8_t more = 0;
  if (pipe_.read_full(&more, 1) != 0) damaged("is damaged (bytes after its end)");
  wait_for_writer();
}

void PipedRunReader::ended_early(const std::string& what) {
  wait_for_writer();
  damaged(what);
}

void PipedRunReader::damaged(const std::string& what) const {
  throw DataError("run file " + pipe_.path() + " " + what);
}

}  // namespace gsort
