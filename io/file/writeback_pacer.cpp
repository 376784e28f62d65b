#include "io/file/writeback_pacer.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace gsort {

WritebackPacer::WritebackPacer(int fd) : fd_(fd) {
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    active_ = false;
    return;
  }
  const off_t at = ::lseek(fd, 0, SEEK_CUR);
  if (at < 0) {
    active_ = false;
    return;
  }
  // Steps are aligned to the file, from the step the writer is in.
  end_ = static_cast<uint64_t>(at);
  kicked_ = retired_ = end_ / kStepBytes * kStepBytes;
}

void WritebackPacer::kick(uint64_t offset) {
  if (::sync_file_range(fd_, static_cast<off_t>(offset), static_cast<off_t>(kStepBytes), SYNC_FILE_RANGE_WRITE) != 0) {
    active_ = false;
  }
}

void WritebackPacer::retire(uint64_t offset) {
  const unsigned wait_all = SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER;
  if (::sync_file_range(fd_, static_cast<off_t>(offset), static_cast<off_t>(kStepBytes), wait_all) != 0) {
    active_ = false;
    return;
  }
  // Clean now: dropping them cannot lose a byte. A refusal only keeps them.
  (void)::posix_fadvise(fd_, static_cast<off_t>(offset), static_cast<off_t>(kStepBytes), POSIX_FADV_DONTNEED);
}

void WritebackPacer::wrote(uint64_t bytes) {
  if (!active_) return;
  end_ += bytes;
  while (active_ && end_ - kicked_ >= kStepBytes) {
    kick(kicked_);
    kicked_ += kStepBytes;
  }
  while (active_ && kicked_ - retired_ > kWindowSteps * kStepBytes) {
    retire(retired_);
    retired_ += kStepBytes;
  }
}

}  // namespace gsort
