#include "io/input/line_sample.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <vector>

#include "io/file/file.h"

namespace gsort {
namespace {

constexpr uint64_t kWindows = 8;
constexpr uint64_t kWindowBytes = 64 << 10;

struct Counted {
  uint64_t bytes = 0;
  uint64_t lines = 0;
};

// Up to kWindows windows of `f`'s [start, start + size), evenly spread.
Counted sample_file(File& f, uint64_t start, uint64_t size, uint8_t eol) {
  Counted c;
  std::vector<uint8_t> window(kWindowBytes);
  const uint64_t windows = std::min<uint64_t>(kWindows, (size + kWindowBytes - 1) / kWindowBytes);
  for (uint64_t w = 0; w < windows; ++w) {
    const uint64_t at = start + (windows == 1 ? 0 : (size - std::min(size, kWindowBytes)) / (windows - 1) * w);
    const size_t got = f.pread_full(window.data(), static_cast<size_t>(std::min(kWindowBytes, start + size - at)), at);
    c.bytes += got;
    c.lines += static_cast<uint64_t>(std::count(window.begin(), window.begin() + static_cast<ptrdiff_t>(got), eol));
  }
  return c;
}

}  // namespace

uint64_t sampled_line_length(const std::vector<std::string>& inputs, uint8_t eol) {
  Counted total;
  for (const std::string& name : inputs) {
    File f;
    if (const int fd = descriptor_of_name(name, 0); fd >= 0) {
      f = File(fd, name, false);
    } else {
      struct stat st {};
      if (::stat(name.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;  // never a FIFO's open
      const int opened = ::open(name.c_str(), O_RDONLY | O_CLOEXEC);
      if (opened < 0) continue;
      f = File(opened, name, true);
    }
    if (!f.has_real_size()) continue;
    const uint64_t size = f.size(), start = std::min(f.position(), size);
    try {
      const Counted c = sample_file(f, start, size - start, eol);
      total.bytes += c.bytes;
      total.lines += c.lines;
    } catch (const std::exception&) {
      continue;  // unreadable here: the sort reports it
    }
    if (total.bytes >= kWindows * kWindowBytes) break;
  }
  return total.lines == 0 ? 0 : (total.bytes + total.lines - 1) / total.lines;
}

}  // namespace gsort
