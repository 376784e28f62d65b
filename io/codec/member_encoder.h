// gzip and bzip2 output, compressed on all the pool's threads. Both formats
// allow what gzip -d and bzip2 -d read as one file: members (gzip) or
// streams (bzip2) laid end to end, decoding to the concatenation of their
// contents. So the output is cut into pieces of a fixed size (gzip: 1 MiB;
// bzip2: one block, LEVEL x 100 kB, as pbzip2 does), each is compressed
// alone by Boost.Iostreams' gzip or bzip2 filter on a pool thread, and the
// pieces are written in order. The bytes written depend only on the data
// and the level, never on the number of threads.
//
// Cost: each gzip member starts with an empty 32 KiB window and adds 18
// bytes of header and footer (measured on gensort records: the same size as
// one member to three decimals); bzip2 loses nothing, its blocks being
// independent anyway. Memory: two pieces per thread, in and out, beyond -S.
#pragma once

#include <memory>

#include "io/codec/output_encoder.h"

namespace gsort {

std::unique_ptr<OutputEncoder> make_member_encoder(CompressionFormat format, File& file, int level, ThreadPool& pool);

}  // namespace gsort
