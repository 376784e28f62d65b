// A compressed input decoded while it is read: what InputFile sees of
// every format (io/codec/compression.h recognises them by their magic). A
// decoder reads its file sequentially, from where the magic was found.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "io/file/file.h"
#include "src/core/compression_format.h"

namespace gsort {

class InputDecoder {
 public:
  virtual ~InputDecoder() = default;
  // Decodes up to n bytes into out; returns fewer only at the end of the
  // data. Corrupted or truncated data throws DataError naming the input.
  virtual size_t read(uint8_t* out, size_t n) = 0;
  // Compressed bytes taken from the file so far (the peeked ones included).
  virtual uint64_t compressed_bytes() const = 0;
};

// A decoder of `format` (not kNone) for `file`. `peeked`: bytes already
// read from the file (from a pipe, to look for the magic), decoded first.
std::unique_ptr<InputDecoder> make_input_decoder(CompressionFormat format, File& file, const uint8_t* peeked,
                                                 size_t peeked_bytes);

}  // namespace gsort
