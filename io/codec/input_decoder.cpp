#include "io/codec/input_decoder.h"

#include "io/codec/filter_decoder.h"
#include "io/codec/gzip_decoder.h"
#include "io/codec/zstd_stream.h"

namespace gsort {

std::unique_ptr<InputDecoder> make_input_decoder(CompressionFormat format, File& file, const uint8_t* peeked,
                                                 size_t peeked_bytes) {
  if (format == CompressionFormat::kZstd) return std::make_unique<ZstdInputStream>(file, peeked, peeked_bytes);
  if (format == CompressionFormat::kGzip) return make_gzip_decoder(file, peeked, peeked_bytes);
  return make_filter_decoder(format, file, peeked, peeked_bytes);
}

}  // namespace gsort
