#include "io/codec/output_encoder.h"

#include "io/codec/member_encoder.h"
#include "io/codec/xz_encoder.h"
#include "io/codec/zstd_stream.h"
#include "src/core/errors.h"

namespace gsort {

std::unique_ptr<OutputEncoder> make_output_encoder(CompressionFormat format, File& file, int level, unsigned threads,
                                                   ThreadPool& pool) {
  switch (format) {
    case CompressionFormat::kZstd:
      // zstd's worker threads overlap compression with the merge and the
      // writes. On 2 cores they gained nothing (docs/benchmarks.md, "zstd"),
      // so the writer thread compresses inline there.
      return std::make_unique<ZstdOutputStream>(file, level, threads > 2 ? threads / 2 : 0);
    case CompressionFormat::kGzip:
    case CompressionFormat::kBzip2:
      return make_member_encoder(format, file, level, pool);
    case CompressionFormat::kXz:
      return make_xz_encoder(file, level, threads);
    case CompressionFormat::kNone:
      break;
  }
  throw Error("no encoder for plain output");
}

}  // namespace gsort
