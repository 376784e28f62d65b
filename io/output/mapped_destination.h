// The destination's temporary file filled through a mapping: all the
// threads that gather records write the file at once (MappedWindow), at
// the rate of page faults, not of one write() stream through the inode's
// lock. The file is reserved first (fallocate), so a full disk fails before
// any byte; at the end the mapping goes (with --fsync, msync and
// fdatasync first) and the file is cut to what was written (-u drops
// records).
#pragma once

#include <cstdint>
#include <memory>

#include "io/output/block_target.h"
#include "io/output/mapped_output_range.h"

namespace gsort {

class File;

class MappedDestination {
 public:
  // `file`: the output's temporary file, open for reading and writing;
  // borrowed, it must outlive this.
  explicit MappedDestination(File& file) : file_(file) {}

  // Blocks of block_bytes over [0, bytes) of the file, reserved and
  // mapped. Null where the file system cannot reserve or map it: write
  // another way then. Once only. Throws IoError when the disk has no room.
  std::unique_ptr<BlockTarget> map(uint64_t bytes, uint64_t block_bytes);
  bool mapped() const { return range_ != nullptr; }

  // After the writer finished `written` bytes: unmaps (with `fsync`, the
  // bytes on stable storage first) and cuts the file to `written`.
  void finish(uint64_t written, bool fsync);

 private:
  File& file_;
  std::unique_ptr<MappedOutputRange> range_;
};

}  // namespace gsort
