#include "src/distributed/local/received_files.h"

#include <cstdio>

#include "src/core/errors.h"

namespace gsort {

ReceivedFiles::ReceivedFiles(const std::string& temp_base, int ranks, uint32_t record_size)
    : dir_(temp_base), record_size_(record_size) {
  for (int r = 0; r < ranks; ++r) {
    uint64_t number = 0;
    files_.push_back(dir_.create_file("received", &number));
  }
}

void ReceivedFiles::append(int source, const uint8_t* records, uint64_t count) {
  files_[static_cast<size_t>(source)].file.write_all(records, count * record_size_);
  records_ += count;
}

void ReceivedFiles::append_bytes(int source, const uint8_t* data, uint64_t bytes) {
  if (bytes % record_size_ != 0) throw Error("internal error: a rank received part of a record");
  append(source, data, bytes / record_size_);
}

void ReceivedFiles::finish() {
  paths_.clear();
  for (const TempFile& f : files_) paths_.push_back("/proc/self/fd/" + std::to_string(f.file.fd()));
}

void ReceivedFiles::remove() {
  for (TempFile& f : files_) dir_.remove(f);
  files_.clear();
  paths_.clear();
}

}  // namespace gsort
