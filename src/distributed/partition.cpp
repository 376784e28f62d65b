#include "src/distributed/partition.h"

#include <algorithm>
#include <cstring>

namespace gsort {

Partitioner::Partitioner(const KeyLayout& layout, const Splitters& splitters, int ranks)
    : layout_(layout),
      splitters_(splitters),
      counts_(static_cast<size_t>(ranks)),
      next_(static_cast<size_t>(ranks)),
      position_(splitters.position_bytes()) {}

void Partitioner::partition(const uint8_t* records, uint64_t count, uint64_t first_index, uint8_t* buckets) {
  const size_t rs = layout_.record_size();
  destination_.resize(count);
  std::fill(counts_.begin(), counts_.end(), 0);
  for (uint64_t i = 0; i < count; ++i) {
    write_order_position(layout_, records + i * rs, first_index + i, position_.data());
    destination_[i] = splitters_.destination(position_.data());
    ++counts_[static_cast<size_t>(destination_[i])];
  }
  uint64_t start = 0;
  for (size_t d = 0; d < counts_.size(); ++d) {
    next_[d] = start;
    start += counts_[d];
  }
  for (uint64_t i = 0; i < count; ++i) {
    const uint64_t at = next_[static_cast<size_t>(destination_[i])]++;
    std::memcpy(buckets + at * rs, records + i * rs, rs);
  }
}

}  // namespace gsort
