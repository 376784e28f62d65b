#include "src/distributed/exchange/shared_segment.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "io/file/file.h"
#include "io/temp/stale_files.h"
#include "io/temp/temp_registry.h"
#include "src/core/errors.h"

namespace gsort {
namespace {

// Collective: whether `ok` holds on every rank of `host`.
bool everyone(MPI_Comm host, bool ok) {
  int mine = ok ? 1 : 0, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, host);
  return all == 1;
}

std::string mib(uint64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

// The host's first rank: a new file of `bytes` in /dev/shm, reserved; its
// name, and its descriptor (-1 with why set, where it cannot).
int make_file(uint64_t bytes, std::string* name, std::string* why, int* slot) {
  remove_stale_files(kSharedSegmentDir, kSharedSegmentPrefix);
  std::string templ = std::string(kSharedSegmentDir) + "/" + kSharedSegmentPrefix + process_tag() + ".XXXXXX";
  std::vector<char> buf(templ.begin(), templ.end());
  buf.push_back('\0');
  const int fd = ::mkostemp(buf.data(), O_CLOEXEC);
  if (fd < 0) {
    *why = describe_errno(kSharedSegmentDir, errno);
    return -1;
  }
  *name = buf.data();
  const int err = ::posix_fallocate(fd, 0, static_cast<off_t>(bytes));
  if (err != 0) {
    *why = describe_errno(*name, err);
    ::unlink(name->c_str());
    ::close(fd);
    return -1;
  }
  *slot = register_temp_path(*name, false);  // a signal removes it until every rank has it mapped
  return fd;
}

void share_name(MPI_Comm host, std::string& name) {
  uint64_t size = name.size();
  MPI_Bcast(&size, 1, MPI_UINT64_T, 0, host);
  name.resize(size);
  MPI_Bcast(name.data(), static_cast<int>(size), MPI_CHAR, 0, host);
}

}  // namespace

SharedSegment::SharedSegment(MPI_Comm host, int rank, int ranks, uint64_t segment_bytes)
    : segment_bytes_(segment_bytes) {
  const uint64_t total = segment_bytes * static_cast<uint64_t>(ranks);
  std::string name, why;
  int slot = -1;
  int fd = rank == 0 && total > 0 ? make_file(total, &name, &why, &slot) : -1;
  if (!everyone(host, rank != 0 || total == 0 || fd >= 0)) {
    throw Error("--exchange shm: cannot make the shared segment (" + mib(total) + ")" +
                (why.empty() ? std::string() : ": " + why));
  }
  if (total == 0) return;
  share_name(host, name);
  if (rank != 0) fd = ::open(name.c_str(), O_RDWR | O_CLOEXEC);
  void* base = MAP_FAILED;
  if (fd >= 0) {
    base = ::mmap(nullptr, static_cast<size_t>(total), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    ::close(fd);
  }
  const bool mapped = base != MAP_FAILED;
  const int map_errno = mapped ? 0 : errno;
  // Everyone has it mapped, or has given up on it: its name can go.
  const bool all_mapped = everyone(host, mapped);
  if (rank == 0) {
    ::unlink(name.c_str());
    unregister_temp_path(slot);
  }
  if (!all_mapped) {
    if (mapped) ::munmap(base, static_cast<size_t>(total));
    throw Error("--exchange shm: cannot map the shared segment (" + mib(total) + " on every rank)" +
                (mapped ? std::string() : ": " + std::string(std::strerror(map_errno))));
  }
  base_ = static_cast<uint8_t*>(base);
  length_ = static_cast<size_t>(total);
}

SharedSegment::~SharedSegment() {
  if (base_) ::munmap(base_, length_);
}

}  // namespace gsort
