// bzip2 and xz inputs, decoded by Boost.Iostreams' filters (libbz2 and
// liblzma underneath; gzip is io/codec/gzip_decoder.h). gsort adds only what
// Boost leaves out: reading from a File (with the bytes peeked at for the
// magic), and messages that name the input and say whether its data is
// truncated or corrupted.
//
// Concatenation, as the tools write and accept it: several bzip2 streams
// and several xz streams (with xz's stream padding) decode to the
// concatenation of their contents. Anything after the last one that is not
// another stream is an error, as are a bad checksum (bzip2's block and
// stream CRCs, xz's check) and
// an xz stream that would need more than 100 MiB to decode (Boost's limit;
// only a dictionary over 96 MiB, from custom xz options, needs that much).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "io/codec/input_decoder.h"

namespace gsort {

// A decoder of `format` (kBzip2 or kXz) for `file`; `peeked`: bytes
// already read from it, decoded first.
std::unique_ptr<InputDecoder> make_filter_decoder(CompressionFormat format, File& file, const uint8_t* peeked,
                                                  size_t peeked_bytes);

}  // namespace gsort
