// The body of the compressed-input fuzz targets (zstd_input_fuzz,
// compressed_input_fuzz): the fuzz input as an input file read through
// InputSet, which decodes it when it starts with a format's magic (as
// under --decompress: the fuzz file has no suffix). Every
// failure must be a gsort::Error. Decoding stops after kMostBytes, so a
// small bomb cannot pass for a hang.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "io/codec/input_format.h"
#include "io/input/input_set.h"
#include "src/core/errors.h"
#include "tests/fuzz/memory_file.h"

namespace fuzz_input {

constexpr uint64_t kMostBytes = 64ull << 20;

inline void read_input(const std::string& path, uint32_t record_size) {
  try {
    gsort::InputSet inputs({path}, record_size);
    const uint64_t per_read = 4096 / record_size + 1;
    std::vector<uint8_t> buf(per_read * record_size);
    uint64_t bytes = 0;
    while (bytes < kMostBytes) {
      const uint64_t got = inputs.read(buf.data(), per_read);
      if (got == 0) break;
      if (got > per_read) __builtin_trap();
      bytes += got * record_size;
    }
  } catch (const gsort::Error&) {
  }
}

inline int test_one_input(const uint8_t* data, size_t size) {
  gsort::set_input_decoding(gsort::InputDecoding::kSniff);
  const MemoryFile file(data, size);
  for (const uint32_t rs : {1u, 100u}) read_input(file.path(), rs);
  return 0;
}

}  // namespace fuzz_input
