// Prints how many bytes of each FILE are in the page cache (mincore), like
// util-linux's `fincore --bytes`, for machines that lack it (the GPU hosts):
//   cached_bytes FILE...      one line per file: BYTES FILE
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {

// Resident bytes of `path`, or -1 (with a message) when it cannot be read.
int64_t cached_bytes(const char* path) {
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    std::fprintf(stderr, "cached_bytes: %s: %s\n", path, std::strerror(errno));
    return -1;
  }
  struct stat st{};
  if (::fstat(fd, &st) != 0) {
    std::fprintf(stderr, "cached_bytes: %s: %s\n", path, std::strerror(errno));
    ::close(fd);
    return -1;
  }
  const uint64_t page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  const uint64_t window = uint64_t{1} << 30;  // mapped a GiB at a time
  int64_t resident = 0;
  std::vector<unsigned char> vec(window / page);
  for (uint64_t off = 0; off < static_cast<uint64_t>(st.st_size); off += window) {
    const uint64_t len = std::min<uint64_t>(window, static_cast<uint64_t>(st.st_size) - off);
    void* p = ::mmap(nullptr, len, PROT_READ, MAP_SHARED, fd, static_cast<off_t>(off));
    if (p == MAP_FAILED) {
      std::fprintf(stderr, "cached_bytes: %s: mmap: %s\n", path, std::strerror(errno));
      ::close(fd);
      return -1;
    }
    if (::mincore(p, len, vec.data()) != 0) {
      std::fprintf(stderr, "cached_bytes: %s: mincore: %s\n", path, std::strerror(errno));
      ::munmap(p, len);
      ::close(fd);
      return -1;
    }
    const uint64_t pages = (len + page - 1) / page;
    for (uint64_t i = 0; i < pages; ++i) resident += (vec[i] & 1) ? static_cast<int64_t>(std::min(page, len - i * page)) : 0;
    ::munmap(p, len);
  }
  ::close(fd);
  return resident;
}

}  // namespace

int main(int argc, char** argv) {
  int status = 0;
  for (int i = 1; i < argc; ++i) {
    const int64_t bytes = cached_bytes(argv[i]);
    if (bytes < 0) {
      status = 1;
      continue;
    }
    std::printf("%lld %s\n", static_cast<long long>(bytes), argv[i]);
  }
  return argc < 2 ? 2 : status;
}
