// What a rank receives in the exchange, kept in one temporary file per
// source rank. Read back in source-rank order they hold this rank's range
// of the total order in input order: slices are contiguous in rank order,
// and each source sends in slice order.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "io/file/file.h"
#include "io/temp/temp_dir.h"

namespace gsort {

class ReceivedFiles {
 public:
  // Creates the files in a new private directory under temp_base (-T).
  ReceivedFiles(const std::string& temp_base, int ranks, uint32_t record_size);

  void append(int source, const uint8_t* records, uint64_t count);
  // The same for `bytes`, whole records.
  void append_bytes(int source, const uint8_t* data, uint64_t bytes);
  // Makes paths() ready to be read, in source-rank order. The files have
  // no names (io/temp/temp_dir.h), so the paths are /proc/self/fd/N of the
  // descriptors kept open here: opening one gives a reader of its own.
  void finish();
  const std::vector<std::string>& paths() const { return paths_; }
  uint64_t records() const { return records_; }
  // Deletes the files (also done by the destructor).
  void remove();

 private:
  TempDir dir_;
  uint32_t record_size_;
  std::vector<std::string> paths_;
  std::vector<TempFile> files_;
  uint64_t records_ = 0;
};

}  // namespace gsort
