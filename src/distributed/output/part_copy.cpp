#include "src/distributed/output/part_copy.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <memory>

#include "io/file/file.h"
#include "src/core/errors.h"

namespace gsort {
namespace {

constexpr uint64_t kBlockBytes = 16ull << 20;

}  // namespace

void copy_file_range_to(const std::string& from, uint64_t from_offset, uint64_t bytes, const std::string& to,
                        uint64_t to_offset, bool durable) {
  File in = File::open_read(from);
  File out = File::open_update(to);
  in.advise_sequential();
  std::unique_ptr<uint8_t[]> block(new uint8_t[std::min(bytes, kBlockBytes) + 1]);
  for (uint64_t done = 0; done < bytes;) {
    const size_t n = static_cast<size_t>(std::min(kBlockBytes, bytes - done));
    if (in.pread_full(block.get(), n, from_offset + done) != n) {
      throw IoError(from + ": the part ended early");
    }
    out.pwrite_all(block.get(), n, to_offset + done);
    done += n;
  }
  if (durable) out.flush_data_to_disk();
  out.close();
}

}  // namespace gsort
