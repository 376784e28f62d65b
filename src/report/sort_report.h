// What one gsort run did: sizes, runs, passes and the wall time of each
// phase, for -v and --stats.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace gsort {

struct SortReport {
  uint64_t input_records = 0;
  uint64_t input_bytes = 0;
  uint64_t output_records = 0;
  uint64_t runs = 0;          // sorted runs spilled to the temp directory
  uint64_t merge_passes = 0;  // passes over spilled runs (0: sorted in memory)
  uint64_t merge_batches = 0;  // batches the merges worked in
  uint64_t early_merges = 0;   // merges of waiting runs before the input ended (run_stack.h)
  uint64_t memory_budget = 0;  // -S as used: raised to the minimum when below it
  uint64_t temp_bytes = 0;    // bytes written to run files (as stored: compressed with --compress-temp)
  uint64_t temp_record_bytes = 0;  // record bytes spilled to run files (before compression)
  uint64_t input_stored_bytes = 0;   // bytes read from the input files (compressed size for zstd inputs)
  uint64_t output_bytes = 0;         // record bytes written to the destination (before compression)
  uint64_t output_stored_bytes = 0;  // bytes written to the destination (after compression)
  bool verified = false;             // --verify ran and the output matched the input
  uint64_t verify_hash_sum = 0;      // the input's order-independent checksum (--verify)
  uint64_t chunk_records = 0;
  bool in_memory = false;
  std::vector<std::pair<std::string, double>> phases;  // in order, seconds

  void add_phase(const std::string& name, double seconds) {
    for (auto& p : phases) {
      if (p.first == name) {
        p.second += seconds;
        return;
      }
    }
    phases.emplace_back(name, seconds);
  }
};

}  // namespace gsort
