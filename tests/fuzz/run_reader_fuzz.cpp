// libFuzzer target: RunReader (io/run/run_file.h) on an arbitrary file: header,
// sizes, frame headers, zstd frames, checksums. The file is read to its end
// as a run of several record sizes, in small and large reads (small reads
// split compressed frames). Every failure must be a gsort::Error.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "io/run/run_file.h"
#include "src/core/errors.h"
#include "tests/fuzz/memory_file.h"

namespace {

void read_whole_run(const std::string& path, uint32_t record_size, uint64_t records_per_read) {
  try {
    gsort::RunReader reader(path, record_size);
    std::vector<uint8_t> buf(record_size * records_per_read);
    uint64_t total = 0;
    while (const uint64_t got = reader.read(buf.data(), records_per_read)) {
      if (got > records_per_read) __builtin_trap();
      total += got;
    }
    // A run read to its end without an error holds what its header says.
    if (total != reader.record_count()) __builtin_trap();
  } catch (const gsort::Error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const MemoryFile file(data, size);
  std::vector<uint32_t> record_sizes{1, 10, 100};
  // Also the record size the header names, so the fuzzer gets past that check.
  if (size >= sizeof(gsort::RunHeader)) {
    gsort::RunHeader h;
    std::memcpy(&h, data, sizeof h);
    if (h.record_size > 0 && h.record_size <= 4096) record_sizes.push_back(h.record_size);
  }
  for (const uint32_t rs : record_sizes) {
    read_whole_run(file.path(), rs, 3);
    read_whole_run(file.path(), rs, 1000);
  }
  return 0;
}
