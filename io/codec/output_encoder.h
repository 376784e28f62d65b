// The compressor of a compressed output (-o FILE.zst/.gz/.bz2/.xz,
// --compress-output): one writer thread hands it the output's bytes in
// order, and it writes the compressed stream to the file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "io/file/file.h"
#include "src/core/compression_format.h"
#include "src/core/thread_pool.h"

namespace gsort {

class OutputEncoder {
 public:
  virtual ~OutputEncoder() = default;
  // Compresses n bytes (any amount, any number of calls).
  virtual void write(const uint8_t* data, size_t n) = 0;
  // Ends the stream; without it the file holds no valid end. Once only.
  virtual void finish() = 0;
  // Compressed bytes written to the file so far.
  virtual uint64_t bytes_out() const = 0;
};

// An encoder of `format` (not kNone) at `level` (checked: io/codec/compression.h)
// writing `file`, compressing on up to `threads` threads: gzip and bzip2 on
// the pool's (which must outlive it), xz and zstd on their libraries' own.
std::unique_ptr<OutputEncoder> make_output_encoder(CompressionFormat format, File& file, int level, unsigned threads,
                                                   ThreadPool& pool);

}  // namespace gsort
