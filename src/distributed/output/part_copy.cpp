#include "src/distributed/output/part_copy.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <memory>

#include "io/file/file.h"
#include "io/output/mapped_output_range.h"
#include "src/core/errors.h"
#include "src/core/test_hooks.h"

namespace gsort {
namespace {

constexpr uint64_t kBlockBytes = 16ull << 20;
constexpr uint64_t kPieceBytes = 4ull << 20;  // read by one thread at a time into a mapped range

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

void copy_into_range(const std::string& from, uint64_t from_offset, uint64_t bytes, const std::string& to,
                     uint64_t to_offset, bool durable, ThreadPool& pool) {
  std::unique_ptr<MappedOutputRange> range;
  if (bytes > 0 && !test_output_by_pwrite()) range = MappedOutputRange::map(to, to_offset, bytes, pool);
  if (!range) {
    copy_file_range_to(from, from_offset, bytes, to, to_offset, durable);
    return;
  }
  File in = File::open_read(from);
  const size_t pieces = static_cast<size_t>((bytes + kPieceBytes - 1) / kPieceBytes);
  pool.parallel_for(pieces, [&](size_t p) {
    const uint64_t at = p * kPieceBytes;
    const size_t n = static_cast<size_t>(std::min(kPieceBytes, bytes - at));
    if (in.pread_full(range->data() + at, n, from_offset + at) != n) throw IoError(from + ": the part ended early");
  });
  range->finish(durable, &pool);
}

}  // namespace gsort
