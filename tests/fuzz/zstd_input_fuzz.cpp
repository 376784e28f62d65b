// libFuzzer target: zstd-compressed inputs, decoded by ZstdInputStream
// through InputSet (the fuzzer is given seeds that start with the zstd
// magic). The body is tests/fuzz/input_fuzz.h.
#include "tests/fuzz/input_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return fuzz_input::test_one_input(data, size);
}
