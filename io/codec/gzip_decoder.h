// gzip inputs, decoded by zlib's inflate called directly: zlib checks each
// member's CRC-32 and its length (ISIZE), which Boost's gzip filter leaves
// unchecked. Several members decode to the concatenation of their
// contents, as gzip writes and reads them; anything after the last member
// that is not another member is an error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "io/codec/input_decoder.h"

namespace gsort {

// A decoder for `file`; `peeked`: bytes already read from it, decoded first.
std::unique_ptr<InputDecoder> make_gzip_decoder(File& file, const uint8_t* peeked, size_t peeked_bytes);

}  // namespace gsort
