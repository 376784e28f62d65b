#include "src/distributed/output/compressed_part.h"

#include <algorithm>
#include <vector>

#include "io/codec/output_encoder.h"
#include "io/file/file.h"
#include "src/core/errors.h"

namespace gsort {

uint64_t compress_part(const std::string& from, uint64_t skip, uint64_t bytes, const std::string& to,
                       const SortConfig& config, ThreadPool& pool) {
  constexpr uint64_t kChunkBytes = uint64_t{8} << 20;
  File out = File::open_update(to);
  std::unique_ptr<OutputEncoder> encoder =
      make_output_encoder(config.output_format, out, config.output_level, config.threads, pool);
  if (bytes > 0) {
    File in = File::open_read(from);
    std::vector<uint8_t> buf;
    for (uint64_t at = 0; at < bytes;) {
      const uint64_t n = std::min(kChunkBytes, bytes - at);
      buf.resize(n);
      if (in.pread_full(buf.data(), n, skip + at) != n) throw IoError("a rank's sorted part is shorter than it was");
      encoder->write(buf.data(), n);
      at += n;
    }
  }
  encoder->finish();
  encoder.reset();
  out.close();
  return File::open_read(to).size();
}

}  // namespace gsort
