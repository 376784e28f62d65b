// libFuzzer target: gzip, bzip2 and xz inputs, decoded by Boost.Iostreams'
// filters through InputSet (io/codec/filter_decoder.h; the seeds start with each
// format's magic). The body is tests/fuzz/input_fuzz.h, as for zstd.
#include "tests/fuzz/input_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return fuzz_input::test_one_input(data, size);
}
