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
      // writes. At least one always: libzstd's output is the same for any
      // number of workers but not the same without them, and the bytes must
      // not depend on --parallel. (A libzstd without threads, as the static
      // one, compresses inline whatever is asked: also the same bytes.)
      return std::make_unique<ZstdOutputStream>(file, level, threads > 2 ? threads / 2 : 1);
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
