#include "io/output/mapped_destination.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "io/file/file.h"
#include "io/output/mapped_window.h"
#include "src/core/errors.h"
#include "src/core/host_buffer.h"

namespace gsort {

bool MappedDestination::prepare(uint64_t bytes, ThreadPool& pool) {
  if (range_) throw Error("internal error: the destination was mapped twice");
  range_ = MappedOutputRange::map(file_, 0, bytes);
  if (!range_) return false;
  ahead_ = std::make_unique<PopulateAhead>(range_->data(), bytes, pool);
  return true;
}

namespace {

// How far ahead of a stream's input its output is reserved and populated.
constexpr uint64_t kFollowAheadBytes = uint64_t{256} << 20;

}  // namespace

bool MappedDestination::follow(uint64_t capacity, ThreadPool& pool) {
  if (range_) throw Error("internal error: the destination was mapped twice");
  range_ = MappedOutputRange::map_growing(file_, capacity);
  if (!range_) return false;
  ahead_ = std::make_unique<PopulateAhead>(range_->data(), range_->reserved(), pool);
  following_ = true;
  return true;
}

void MappedDestination::read_so_far(uint64_t bytes) {
  if (!following_ || handed_out_ || !range_) return;
  if (bytes >= range_->size()) {
    release_range(0);  // the input outgrew memory: spilled, merged, mapped again
    return;
  }
  const uint64_t target = std::min(range_->size(), bytes + kFollowAheadBytes);
  if (target <= range_->reserved()) return;
  range_->grow_to(target);
  ahead_->extend(target);
}

void MappedDestination::release_range(uint64_t keep_bytes) {
  ahead_.reset();
  range_->finish(false);
  range_.reset();
  following_ = false;
  // Its pages go too: truncated, they are dropped rather than written back.
  if (::ftruncate(file_.fd(), static_cast<off_t>(keep_bytes)) != 0) {
    throw IoError("cannot write output: " + describe_errno(file_.display_name(), errno));
  }
}

std::unique_ptr<BlockTarget> MappedDestination::map(uint64_t bytes, uint64_t block_bytes, ThreadPool& pool) {
  if (handed_out_) throw Error("internal error: the destination was mapped twice");
  if (range_ && bytes > range_->size()) release_range(0);
  if (!range_ && !prepare(bytes, pool)) return nullptr;
  if (following_) {
    range_->grow_to(bytes);
    ahead_->extend(bytes);
  }
  handed_out_ = true;
  return std::make_unique<MappedWindow>(range_->data(), bytes, block_bytes, ahead_.get());
}

void MappedDestination::finish(uint64_t written, bool fsync) {
  ahead_.reset();  // waits for the pieces under way
  if (!range_) return;
  const uint64_t reserved = range_->size();
  range_->finish(fsync);
  range_.reset();
  if (written < reserved && ::ftruncate(file_.fd(), static_cast<off_t>(written)) != 0) {
    throw IoError("cannot write output: " + describe_errno(file_.display_name(), errno));
  }
  // The file's offset never moved: put it at the end, as write() would have.
  if (::lseek(file_.fd(), static_cast<off_t>(written), SEEK_SET) < 0) {
    throw IoError("cannot write output: " + describe_errno(file_.display_name(), errno));
  }
}

}  // namespace gsort
