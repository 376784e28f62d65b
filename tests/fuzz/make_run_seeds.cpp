// Writes valid run files for the run_reader_fuzz seed corpus, with the real
// RunWriter: empty, plain, and zstd-framed runs of a few record sizes.
// Usage: gsort_fuzz_run_seeds DIR
#include <cstdio>
#include <string>
#include <vector>

#include "io/run/run_file.h"

namespace {

void write_run(const std::string& path, uint32_t record_size, uint64_t count, bool compressed) {
  std::vector<uint8_t> records(record_size * count);
  for (size_t i = 0; i < records.size(); ++i) records[i] = static_cast<uint8_t>(i * 7 + i / 13);
  gsort::RunCompression compression;
  compression.enabled = compressed;
  compression.frame_bytes = uint64_t{record_size} * 4;  // several frames, and a short last one
  gsort::RunWriter writer(path, record_size, compression);
  writer.append(records.data(), count);
  writer.finish();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
    return 2;
  }
  const std::string dir = argv[1];
  write_run(dir + "/empty_plain", 10, 0, false);
  write_run(dir + "/empty_zstd", 10, 0, true);
  write_run(dir + "/plain_rs1", 1, 17, false);
  write_run(dir + "/plain_rs10", 10, 9, false);
  write_run(dir + "/zstd_rs10", 10, 9, true);
  write_run(dir + "/zstd_rs100", 100, 10, true);
  return 0;
}
