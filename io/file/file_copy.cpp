#include "io/file/file_copy.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <memory>

#include "src/core/errors.h"

namespace gsort {
namespace {

constexpr uint64_t kBlockBytes = 8ull << 20;

// What copy_file_range could not do, through a buffer, from `done` on.
void copy_through_buffer(File& from, File& to, uint64_t done, uint64_t bytes) {
  std::unique_ptr<uint8_t[]> block(new uint8_t[kBlockBytes]);
  while (done < bytes) {
    const size_t n = static_cast<size_t>(std::min(kBlockBytes, bytes - done));
    if (from.pread_full(block.get(), n, done) != n) throw IoError(from.display_name() + ": the file ended early");
    to.pwrite_all(block.get(), n, done);
    done += n;
  }
}

}  // namespace

void copy_over(File& from, File& to) {
  const uint64_t bytes = from.size();
  uint64_t done = 0;
  while (done < bytes) {
    loff_t in = static_cast<loff_t>(done), out = static_cast<loff_t>(done);
    const size_t n = static_cast<size_t>(std::min<uint64_t>(bytes - done, 1ull << 30));
    const ssize_t got = ::copy_file_range(from.fd(), &in, to.fd(), &out, n, 0);
    if (got > 0) {
      done += static_cast<uint64_t>(got);
      continue;
    }
    if (got == 0) throw IoError(from.display_name() + ": the file ended early");
    if (errno == EINTR) continue;
    if (errno != EXDEV && errno != ENOSYS && errno != EINVAL && errno != EOPNOTSUPP) {
      throw IoError("cannot copy " + from.display_name() + " into " + describe_errno(to.display_name(), errno));
    }
    copy_through_buffer(from, to, done, bytes);
    break;
  }
  if (::ftruncate(to.fd(), static_cast<off_t>(bytes)) != 0) {
    throw IoError("cannot write " + describe_errno(to.display_name(), errno));
  }
}

}  // namespace gsort
