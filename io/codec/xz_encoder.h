// xz output through Boost.Iostreams' lzma filter, which (since Boost 1.71,
// with liblzma 5.2 or later) runs liblzma's multithreaded encoder: the
// output is cut into independent blocks (3 x the dictionary: 24 MiB at the
// default level 6) compressed on `threads` threads of liblzma's own, with a
// CRC-32 check. One thread is still a thread beside the writer's. The bytes
// written do not depend on the number of threads; xz -d reads them, and
// xz 5.4 decodes such blocks in parallel.
//
// Memory, beyond -S: liblzma's, about 100 MiB per thread at level 6 (xz
// -vv --threads=N says how much for a level); the threads are capped at the
// hardware threads and at a quarter of physical memory, as xz -T0 is.
#pragma once

#include <memory>

#include "io/codec/output_encoder.h"

namespace gsort {

std::unique_ptr<OutputEncoder> make_xz_encoder(File& file, int level, unsigned threads);

}  // namespace gsort
