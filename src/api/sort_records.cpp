#include "src/api/sort_records.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include "io/file/checksum.h"
#include "src/algo/gather.h"
#include "src/algo/loser_tree.h"
#include "src/chunk_sort/backend_factory.h"
#include "src/config/config_layout.h"
#include "src/core/errors.h"
#include "src/core/host_buffer.h"
#include "src/core/log.h"
#include "src/core/thread_pool.h"
#include "src/keys/key_layout.h"
#include "src/verify/sorted_check.h"

namespace gsort {
namespace {

constexpr uint64_t kMaxBackendRecords = UINT32_MAX;  // SortBackend::sort_order takes count < 2^32

// Merges the sorted chunks of `from` (chunk c holds records [starts[c],
// starts[c+1])) into `to`; equal keys go to the lower chunk, so the merge
// is as stable as the sort.
void merge_chunks(const KeyLayout& layout, const uint8_t* from, const std::vector<uint64_t>& starts, uint8_t* to) {
  const uint32_t rs = layout.record_size();
  const size_t k = starts.size() - 1;
  std::vector<uint64_t> next(starts.begin(), starts.end() - 1);
  auto less = [&](size_t i, size_t j) {
    const int c = layout.compare(from + next[i] * rs, from + next[j] * rs);
    return c < 0 || (c == 0 && i < j);
  };
  LoserTree<decltype(less)> tree(k, less);
  uint64_t out = 0;
  while (!tree.empty()) {
    const size_t w = tree.winner();
    std::memcpy(to + out * rs, from + next[w] * rs, rs);
    ++out;
    tree.advance(++next[w] < starts[w + 1]);
  }
}

// Keeps the first record of each run of equal keys; returns how many.
uint64_t drop_repeated_keys(const KeyLayout& layout, uint8_t* records, uint64_t count) {
  const uint32_t rs = layout.record_size();
  uint64_t kept = count == 0 ? 0 : 1;
  for (uint64_t i = 1; i < count; ++i) {
    const uint8_t* r = records + i * rs;
    if (layout.compare(records + (kept - 1) * rs, r) == 0) continue;
    if (kept != i) std::memmove(records + kept * rs, r, rs);
    ++kept;
  }
  return kept;
}

// --verify for a buffer: the records are in order and are the ones given.
void verify(const KeyLayout& layout, const uint8_t* records, uint64_t count, uint64_t hash_before, bool unique) {
  const uint32_t rs = layout.record_size();
  for (uint64_t i = 1; i < count; ++i) {
    const int c = layout.compare(records + (i - 1) * rs, records + i * rs);
    if (out_of_order(c, unique)) {
      throw Error("verification failed: record " + std::to_string(i + 1) + " of the sorted buffer is out of order");
    }
  }
  if (!unique && hash_record_sum(records, count, rs) != hash_before) {
    throw Error("verification failed: the sorted buffer does not hold the records given (checksum differs)");
  }
}

}  // namespace

uint64_t sort_records_in_place(uint8_t* records, uint64_t count, const SortConfig& config,
                               uint64_t max_chunk_records) {
  const KeyLayout layout = layout_of(config);
  if (count == 0) return 0;
  const uint32_t rs = config.record_size;
  const Log log(config.verbose);
  ThreadPool pool(config.threads);
  const uint64_t hash_before = config.verify ? hash_record_sum(records, count, rs) : 0;
  std::unique_ptr<SortBackend> backend = make_backend(config, layout, pool, log, true, count * rs);
  log.info("backend: " + backend->describe());

  // Beyond the two copies of the records, a chunk needs its order (4 bytes
  // a record) and what the backend takes per record: -S bounds that.
  const uint64_t per_record = 4 + backend->host_bytes_per_record();
  const uint64_t by_memory = std::max<uint64_t>(1, config.memory_bytes / per_record);
  const uint64_t chunk = std::min({count, kMaxBackendRecords, by_memory, std::max<uint64_t>(1, max_chunk_records)});
  HostBuffer sorted = HostBuffer::allocate_pageable(count * rs);
  std::vector<uint32_t> order(chunk);
  std::vector<uint64_t> starts{0};
  for (uint64_t begin = 0; begin < count; begin += chunk) {
    const uint64_t n = std::min(chunk, count - begin);
    backend->sort_order(records + begin * rs, n, order.data());
    gather_records(pool, records + begin * rs, rs, order.data(), n, sorted.data() + begin * rs);
    starts.push_back(begin + n);
  }
  if (starts.size() == 2) {
    parallel_copy(pool, records, sorted.data(), count * rs);
  } else {
    log.info("merging " + std::to_string(starts.size() - 1) + " sorted chunks");
    merge_chunks(layout, sorted.data(), starts, records);
  }
  const uint64_t kept = config.unique ? drop_repeated_keys(layout, records, count) : count;
  if (config.verify) verify(layout, records, kept, hash_before, config.unique);
  return kept;
}

}  // namespace gsort
