#include "io/output/mapped_destination.h"

#include <unistd.h>

#include <cerrno>

#include "io/file/file.h"
#include "io/output/mapped_window.h"
#include "src/core/errors.h"

namespace gsort {

std::unique_ptr<BlockTarget> MappedDestination::map(uint64_t bytes, uint64_t block_bytes) {
  if (range_) throw Error("internal error: the destination was mapped twice");
  range_ = MappedOutputRange::map(file_, 0, bytes);
  if (!range_) return nullptr;
  return std::make_unique<MappedWindow>(range_->data(), bytes, block_bytes);
}

void MappedDestination::finish(uint64_t written, bool fsync) {
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
