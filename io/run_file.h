// Run files: the sorted runs spilled to the temp directory. A 64-byte header
// (magic, version, record size, record count, payload checksum) is written
// last, so a run whose writer died is recognisably incomplete; the reader
// checks the header, the file size, and the checksum at the end, so a
// truncated or corrupted run is reported, never merged silently.
#pragma once

#include <cstdint>
#include <string>

#include "io/checksum.h"
#include "io/file.h"
#include "io/record_source.h"

namespace gsort {

struct RunHeader {
  char magic[8];
  uint32_t version;
  uint32_t record_size;
  uint64_t record_count;
  uint64_t payload_bytes;  // bytes after the header
  uint64_t checksum;       // XXH3-64 of the payload
  uint32_t flags;
  uint8_t reserved[20];
};
static_assert(sizeof(RunHeader) == 64, "run header is 64 bytes on disk");

constexpr uint32_t kRunFormatVersion = 1;

class RunWriter {
 public:
  RunWriter(const std::string& path, uint32_t record_size);
  RunWriter(const RunWriter&) = delete;
  RunWriter& operator=(const RunWriter&) = delete;

  void append(const uint8_t* records, uint64_t count);
  // Writes the header and closes the file.
  void finish();
  uint64_t record_count() const { return count_; }
  const std::string& path() const { return file_.path(); }

 private:
  File file_;
  uint32_t record_size_;
  uint64_t count_ = 0;
  StreamHash hash_;
};

class RunReader final : public RecordSource {
 public:
  // Throws DataError when the header is missing, foreign, or disagrees with
  // the file's size or the expected record size.
  RunReader(const std::string& path, uint32_t record_size);
  RunReader(const RunReader&) = delete;
  RunReader& operator=(const RunReader&) = delete;

  uint64_t read(uint8_t* buf, uint64_t max_records) override;
  std::string name() const override { return file_.path(); }
  uint64_t record_count() const { return header_.record_count; }

 private:
  File file_;
  RunHeader header_;
  uint64_t records_left_;
  StreamHash hash_;
};

}  // namespace gsort
