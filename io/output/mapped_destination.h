// The destination's temporary file filled through a mapping: all the
// threads that gather records write the file at once (MappedWindow), at
// the rate of page faults, not of one write() stream through the inode's
// lock. The file is reserved first (fallocate), so that the mapping never
// meets a full disk; a disk without room for the reservation (which holds
// the whole output at once, beside runs not yet freed) leaves the writer
// to the stream, which grows the file as the runs are freed. At the end the
// mapping goes (with --fsync, msync and fdatasync first) and the file is
// cut to what was written (-u drops records).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "io/output/block_target.h"
#include "io/output/mapped_output_range.h"
#include "io/output/output_target.h"
#include "io/output/populate_ahead.h"
#include "src/core/thread_pool.h"

namespace gsort {

class File;

class MappedDestination {
 public:
  // `file`: the output's temporary file, open for reading and writing;
  // borrowed, it must outlive this.
  explicit MappedDestination(File& file) : file_(file) {}
  // The target's file; standard output that is a regular file from where
  // its offset stands (OutputTarget::direct_is_mappable).
  // A range of a file others fill too (OutputTarget::is_range): mapped
  // from its offset, at most its bytes, and never cut back or grown.
  explicit MappedDestination(OutputTarget& target) : MappedDestination(target.file()) {
    if (target.is_range()) {
      start_at(target.direct_offset(), nullptr);
      range_bytes_ = target.range_bytes();
    } else if (target.direct_is_mappable()) {
      start_at(target.direct_offset(), OutputTarget::kStandardOutputName);
    }
  }
  // A range of standard output still mapped (a failed sort) is cut off the
  // file again.
  ~MappedDestination();
  MappedDestination(const MappedDestination&) = delete;
  MappedDestination& operator=(const MappedDestination&) = delete;

  // Maps the file from `offset` instead of from 0, through `reopen` (its
  // name, opened read-write for the mmap): standard output that is a
  // regular file, written where its offset stands. Before any other call.
  void start_at(uint64_t offset, const char* reopen) {
    offset_ = offset;
    reopen_ = reopen;
  }

  // Reserves and maps [0, bytes) of the file now, where its size is known
  // early (an in-memory sort, before it reads), and starts making its pages
  // present on the pool's threads (PopulateAhead) while the sort goes on.
  // False where the file system cannot reserve or map it, or has no room to
  // reserve it (no_room() says so). lead: PopulateAhead's (0: all at once).
  bool prepare(uint64_t bytes, ThreadPool& pool, uint64_t lead = 0);
  // The same for a stream, whose output's size is known only at its end:
  // maps up to `max_bytes` now; grow() reserves what has arrived, whose
  // pages are made present on the pool as it comes. The map() or
  // map_whole() that follows takes the range if it asks for exactly what
  // grew; otherwise the range goes and a new one is made.
  bool prepare_growing(uint64_t max_bytes, ThreadPool& pool);
  // The output will be at least `bytes` long (a growing range only; it is
  // given up where the disk has no room for it).
  void grow(uint64_t bytes);
  // Gives a growing range up now: unmapped, its pages dropped, the file cut
  // back (the stream outgrew what one range was to hold).
  void abandon_growth();
  // Blocks of block_bytes over [0, bytes) of the file: the prepared range,
  // or one reserved and mapped now, whose pages the writer's threads make
  // present as they fill them: nothing is made present ahead on the pool,
  // which the writer needs (a merge's batches waited on that work). Null where the
  // file system cannot reserve or map it: write another way then. Once only.
  std::unique_ptr<BlockTarget> map(uint64_t bytes, uint64_t block_bytes);
  // The same range for a writer that fills it anywhere, on many threads,
  // each making its own pages present (the parallel merge): its first
  // byte; null where it cannot be reserved or mapped. Once only, instead
  // of map().
  uint8_t* map_whole(uint64_t bytes);
  bool mapped() const { return range_ != nullptr; }
  // Whether pages are being made present ahead on the pool (prepare() only).
  bool populating_ahead() const { return ahead_ != nullptr; }
  // Seconds the writers waited for pages made present ahead (for -v).
  double populate_waited_s() const { return ahead_ ? ahead_->waited_s() : 0; }
  // Why map() gave no blocks, where the disk had no room to reserve them;
  // empty otherwise.
  std::string no_room() const;

  // After the writer finished `written` bytes: unmaps (with `fsync`, the
  // bytes on stable storage first), cuts the file to offset + `written`
  // and puts `file`'s offset there, as write() would have. With a pool, it
  // unmaps on the pool's threads (MappedOutputRange::finish).
  void finish(uint64_t written, bool fsync, ThreadPool* pool = nullptr);

 private:
  File& file_;
  uint64_t offset_ = 0;
  const char* reopen_ = nullptr;
  uint64_t range_bytes_ = 0;  // a range of a file others fill too: its size (0: none)
  std::unique_ptr<MappedOutputRange> range_;
  // Reserves and maps [offset, +bytes), where the disk has room; false if not.
  bool reserve(uint64_t bytes);
  // A growing range asked for `bytes`: kept if that is what it holds.
  void settle_growth(uint64_t bytes);

  std::unique_ptr<PopulateAhead> ahead_;  // after range_: goes first
  bool handed_out_ = false;
  bool growing_ = false;
  uint64_t no_room_for_ = 0;  // the bytes a reservation found no room for
};

}  // namespace gsort
