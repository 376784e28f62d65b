// What a rank receives in the exchange, kept in one temporary file per
// source rank. Read back in source-rank order they hold this rank's range
// of the total order in input order: slices are contiguous in rank order,
// and each source sends in slice order.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "io/file/file.h"
#include "io/temp/temp_dir.h"

namespace gsort {

class ReceivedFiles {
 public:
  // Creates the files in a new private directory under temp_base (-T).
  // With `pool_bytes`, where no order between sources need be kept (lines
  // sorted without -s or -u, whose equal lines are the same bytes), every
  // source's pieces go into one file in memory (memfd) while it holds at
  // most pool_bytes, and the rest into one file in -T: a sort then maps the
  // first whole, in place, instead of reading it. The pool is filled
  // through a mapping (take()), so that pieces land there without a copy.
  ReceivedFiles(const std::string& temp_base, int ranks, uint32_t record_size, uint64_t pool_bytes = 0);
  ~ReceivedFiles();
  ReceivedFiles(const ReceivedFiles&) = delete;
  ReceivedFiles& operator=(const ReceivedFiles&) = delete;

  // Pooled: room for `bytes` more in the pool, counted as received, for the
  // caller to fill before finish(); null where the pool cannot take them
  // (it would outgrow pool_bytes, or could not be made): append them then.
  // Safe to call from several threads at once, as append() is.
  uint8_t* take(uint64_t bytes);

  void append(int source, const uint8_t* records, uint64_t count);
  // The same for `bytes`, whole records.
  void append_bytes(int source, const uint8_t* data, uint64_t bytes);
  // Makes paths() ready to be read, in source-rank order (pooled: the
  // pool cut to what it holds, then the file in -T where it has bytes). The files have
  // no names (io/temp/temp_dir.h), so the paths are /proc/self/fd/N of the
  // descriptors kept open here: opening one gives a reader of its own.
  void finish();
  const std::vector<std::string>& paths() const { return paths_; }
  uint64_t records() const { return records_; }
  // Deletes the files (also done by the destructor).
  void remove();

 private:
  // take() with mutex_ held.
  uint8_t* take_locked(uint64_t bytes);
  void unmap_pool();

  TempDir dir_;
  uint32_t record_size_;
  uint64_t pool_bytes_ = 0;
  File pool_;                     // pooled: the memory file (closed where none could be made)
  uint8_t* pool_map_ = nullptr;   // pool_bytes_ of it mapped (its size grows as it is taken)
  uint64_t pool_size_ = 0;        // the memory file's size
  uint64_t pooled_ = 0;           // bytes taken of it
  std::mutex mutex_;
  std::vector<std::string> paths_;
  std::vector<TempFile> files_;
  uint64_t records_ = 0;
};

}  // namespace gsort
