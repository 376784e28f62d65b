// Splits a chunk of records into one bucket per rank by the splitters,
// keeping input order inside each bucket (a stable counting sort by
// destination), ready for Exchange::round.
#pragma once

#include <cstdint>
#include <vector>

#include "src/distributed/splitters.h"
#include "src/keys/key_layout.h"

namespace gsort {

class Partitioner {
 public:
  Partitioner(const KeyLayout& layout, const Splitters& splitters, int ranks);

  // records: `count` records whose first is global record `first_index`.
  // Writes them to `buckets` (room for count records), grouped by rank in
  // rank order; counts() then holds each bucket's size.
  void partition(const uint8_t* records, uint64_t count, uint64_t first_index, uint8_t* buckets);
  const std::vector<uint64_t>& counts() const { return counts_; }

 private:
  const KeyLayout& layout_;
  const Splitters& splitters_;
  std::vector<uint64_t> counts_;
  std::vector<uint64_t> next_;  // write position of each bucket
  std::vector<int> destination_;  // of each record of the chunk
  std::vector<uint8_t> position_;
};

}  // namespace gsort
