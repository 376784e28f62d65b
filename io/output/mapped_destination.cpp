#include "io/output/mapped_destination.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <string>

#include "io/file/file.h"
#include "io/output/mapped_window.h"
#include "src/core/errors.h"
#include "src/core/host_buffer.h"

namespace gsort {

MappedDestination::~MappedDestination() {
  ahead_.reset();
  if (!range_) return;
  range_.reset();
  // Standard output (a temporary file goes whole): nothing of a failed sort
  // is left. (OutputTarget cuts it back too, and on a signal.)
  if (reopen_ != nullptr) (void)::ftruncate(file_.fd(), static_cast<off_t>(offset_));
}

bool MappedDestination::reserve(uint64_t bytes) {
  if (range_) throw Error("internal error: the destination was mapped twice");
  bool no_room = false;
  if (range_bytes_ != 0) {
    // Never past the range, and a disk without room is an error: a cut
    // back would take other processes' bytes.
    range_ = MappedOutputRange::map(file_, offset_, std::min(bytes, range_bytes_), nullptr, reopen_);
    return range_ != nullptr;
  }
  range_ = MappedOutputRange::map(file_, offset_, bytes, &no_room, reopen_);
  if (no_room) no_room_for_ = bytes;
  return range_ != nullptr;
}

bool MappedDestination::prepare(uint64_t bytes, ThreadPool& pool, uint64_t lead) {
  if (!reserve(bytes)) return false;
  // What was reserved: a range of a file others fill too stops at its end.
  ahead_ = std::make_unique<PopulateAhead>(range_->data(), range_->size(), pool, lead);
  return true;
}

bool MappedDestination::prepare_growing(uint64_t max_bytes, ThreadPool& pool) {
  if (range_) throw Error("internal error: the destination was mapped twice");
  if (range_bytes_ != 0) return false;  // its size is known
  range_ = MappedOutputRange::map_growing(file_, offset_, max_bytes, reopen_);
  if (!range_) return false;
  growing_ = true;
  ahead_ = std::make_unique<PopulateAhead>(range_->data(), max_bytes, pool, 0, true);
  return true;
}

void MappedDestination::grow(uint64_t bytes) {
  if (!growing_ || bytes <= range_->size()) return;
  if (bytes > range_->capacity() || !range_->grow(bytes)) {
    abandon_growth();
    return;
  }
  ahead_->extend(bytes);
}

void MappedDestination::abandon_growth() {
  if (!growing_) return;
  growing_ = false;
  ahead_.reset();
  range_.reset();
  if (::ftruncate(file_.fd(), static_cast<off_t>(offset_)) != 0) {
    throw IoError("cannot write output: " + describe_errno(file_.display_name(), errno));
  }
}

void MappedDestination::settle_growth(uint64_t bytes) {
  if (!growing_) return;
  if (bytes != range_->size()) {
    abandon_growth();
    return;
  }
  growing_ = false;
  ahead_->end_growth(bytes);
}

std::unique_ptr<BlockTarget> MappedDestination::map(uint64_t bytes, uint64_t block_bytes) {
  if (handed_out_) throw Error("internal error: the destination was mapped twice");
  settle_growth(bytes);
  if (!range_ && (no_room_for_ != 0 || !reserve(bytes))) return nullptr;
  if (bytes > range_->size()) throw Error("internal error: the output outgrew the range reserved for it");
  handed_out_ = true;
  return std::make_unique<MappedWindow>(range_->data(), bytes, block_bytes, ahead_.get());
}

uint8_t* MappedDestination::map_whole(uint64_t bytes) {
  if (handed_out_) throw Error("internal error: the destination was mapped twice");
  settle_growth(bytes);
  if (!range_ && (no_room_for_ != 0 || !reserve(bytes))) return nullptr;
  if (bytes > range_->size()) throw Error("internal error: the output outgrew the range reserved for it");
  handed_out_ = true;
  return range_->data();
}

std::string MappedDestination::no_room() const {
  if (no_room_for_ == 0) return "";
  return "no room to reserve its " + std::to_string(no_room_for_) + " bytes at once";
}

void MappedDestination::finish(uint64_t written, bool fsync, ThreadPool* pool) {
  ahead_.reset();  // waits for the pieces under way
  if (!range_) return;
  const uint64_t reserved = range_->size();
  range_->finish(fsync, pool);
  range_.reset();
  const off_t end = static_cast<off_t>(offset_ + written);
  if (range_bytes_ != 0 && written != range_bytes_) {
    throw Error("internal error: " + std::to_string(written) + " bytes written into a range of " +
                std::to_string(range_bytes_) + " of " + file_.display_name());
  }
  if (range_bytes_ == 0 && written < reserved && ::ftruncate(file_.fd(), end) != 0) {
    throw IoError("cannot write output: " + describe_errno(file_.display_name(), errno));
  }
  // The file's offset never moved: put it at the end, as write() would have.
  if (::lseek(file_.fd(), end, SEEK_SET) < 0) {
    throw IoError("cannot write output: " + describe_errno(file_.display_name(), errno));
  }
}

}  // namespace gsort
