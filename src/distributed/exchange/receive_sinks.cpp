#include "src/distributed/exchange/receive_sinks.h"

#include <numeric>

namespace gsort {
FileSink::FileSink(ReceivedFiles& files, int ranks, uint32_t record_size, uint64_t round_records)
    : files_(files),
      record_size_(record_size),
      round_records_(round_records),
      staging_(HostBuffer::allocate_pageable(static_cast<size_t>(ranks) * round_records * record_size)) {}

uint8_t* FileSink::place(int source, uint64_t) {
  return staging_.data() + static_cast<uint64_t>(source) * round_records_ * record_size_;
}

void FileSink::landed(int source, uint64_t count) { files_.append(source, place(source, count), count); }

MemorySink::MemorySink(uint8_t* records, const std::vector<uint64_t>& from_each, uint32_t record_size)
    : records_(records), record_size_(record_size), next_(from_each.size()) {
  std::exclusive_scan(from_each.begin(), from_each.end(), next_.begin(), uint64_t{0});
}

uint8_t* MemorySink::place(int source, uint64_t) {
  return records_ + next_[static_cast<size_t>(source)] * record_size_;
}

void MemorySink::landed(int source, uint64_t count) { next_[static_cast<size_t>(source)] += count; }

}  // namespace gsort
