#include "io/run_file.h"

#include <unistd.h>

#include <cstring>

#include "core/errors.h"

namespace gsort {
namespace {

constexpr char kMagic[8] = {'G', 'S', 'O', 'R', 'T', 'R', 'U', 'N'};

}  // namespace

RunWriter::RunWriter(const std::string& path, uint32_t record_size)
    : file_(File::create(path)), record_size_(record_size) {
  RunHeader blank;
  std::memset(&blank, 0, sizeof blank);  // no magic until finish()
  file_.write_all(&blank, sizeof blank);
}

void RunWriter::append(const uint8_t* records, uint64_t count) {
  const size_t bytes = static_cast<size_t>(count * record_size_);
  file_.write_all(records, bytes);
  hash_.update(records, bytes);
  count_ += count;
}

void RunWriter::finish() {
  RunHeader h;
  std::memset(&h, 0, sizeof h);
  std::memcpy(h.magic, kMagic, sizeof kMagic);
  h.version = kRunFormatVersion;
  h.record_size = record_size_;
  h.record_count = count_;
  h.payload_bytes = count_ * record_size_;
  h.checksum = hash_.digest();
  file_.pwrite_all(&h, sizeof h, 0);
  file_.close();
}

RunReader::RunReader(const std::string& path, uint32_t record_size)
    : file_(File::open_read(path)) {
  const uint64_t size = file_.size();
  if (size < sizeof(RunHeader) || file_.pread_full(&header_, sizeof header_, 0) != sizeof header_) {
    throw DataError("run file " + path + " is truncated (no header)");
  }
  if (std::memcmp(header_.magic, kMagic, sizeof kMagic) != 0) {
    throw DataError("run file " + path + " is not a complete gsort run (bad magic)");
  }
  if (header_.version != kRunFormatVersion) {
    throw DataError("run file " + path + " has unsupported version " + std::to_string(header_.version));
  }
  if (header_.record_size != record_size) {
    throw DataError("run file " + path + " holds " + std::to_string(header_.record_size) +
                    "-byte records, expected " + std::to_string(record_size));
  }
  if (header_.payload_bytes != header_.record_count * record_size ||
      size != sizeof(RunHeader) + header_.payload_bytes) {
    throw DataError("run file " + path + " is truncated or damaged: " + std::to_string(size) +
                    " bytes on disk, header promises " + std::to_string(sizeof(RunHeader) + header_.payload_bytes));
  }
  records_left_ = header_.record_count;
  // The file offset is still 0 after pread; skip the header.
  if (::lseek(file_.fd(), sizeof(RunHeader), SEEK_SET) < 0) throw IoError("cannot seek in " + path);
  file_.advise_sequential();
}

uint64_t RunReader::read(uint8_t* buf, uint64_t max_records) {
  const uint64_t want = max_records < records_left_ ? max_records : records_left_;
  if (want == 0) return 0;
  const size_t bytes = static_cast<size_t>(want * header_.record_size);
  if (file_.read_full(buf, bytes) != bytes) {
    throw DataError("run file " + file_.path() + " is truncated");
  }
  hash_.update(buf, bytes);
  records_left_ -= want;
  if (records_left_ == 0 && hash_.digest() != header_.checksum) {
    throw DataError("run file " + file_.path() + " is corrupted (checksum mismatch)");
  }
  return want;
}

}  // namespace gsort
