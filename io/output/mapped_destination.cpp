#include "io/output/mapped_destination.h"

#include <unistd.h>

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

std::unique_ptr<BlockTarget> MappedDestination::map(uint64_t bytes, uint64_t block_bytes, ThreadPool& pool) {
  if (handed_out_) throw Error("internal error: the destination was mapped twice");
  if (!range_ && !prepare(bytes, pool)) return nullptr;
  if (bytes > range_->size()) throw Error("internal error: the output outgrew the range reserved for it");
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
