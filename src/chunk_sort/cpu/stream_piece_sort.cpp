#include "src/chunk_sort/cpu/stream_piece_sort.h"

#include <algorithm>

#include "src/chunk_sort/cpu/entry_sort.h"
#include "src/chunk_sort/cpu/piece_merge.h"
#include "src/chunk_sort/entries/entry_merge.h"
#include "src/core/stopwatch.h"

namespace gsort {
namespace {

constexpr uint64_t kPieceBytes = uint64_t{64} << 20;
constexpr uint64_t kMinPieceRecords = uint64_t{1} << 16;  // below this, one thread sorts a piece

}  // namespace

uint64_t StreamPieceSort::default_piece_records(uint32_t record_size) {
  return std::max<uint64_t>(kMinPieceRecords, kPieceBytes / record_size);
}

StreamPieceSort::StreamPieceSort(const KeyLayout& layout, ThreadPool& pool, const uint8_t* records,
                                 uint64_t capacity, uint64_t piece_records, BackendTimings& timings)
    : layout_(layout),
      pool_(pool),
      records_(records),
      capacity_(capacity),
      piece_records_(std::max<uint64_t>(1, piece_records)),
      timings_(timings),
      entries_buf_(HostBuffer::allocate_pageable(std::max<uint64_t>(1, capacity) * sizeof(KeyEntry))),
      scratch_buf_(HostBuffer::allocate_pageable(std::max<uint64_t>(1, capacity) * sizeof(KeyEntry))),
      // A piece: every record ready, once a piece's worth has come or the chunk has ended.
      pieces_([this](uint64_t begin, uint64_t available, uint64_t final) -> uint64_t {
                if (final != PieceThread::kUnknown) return begin < final ? final : 0;
                return available - begin >= piece_records_ ? available : 0;
              },
              [this](uint64_t begin, uint64_t end) { return sort_piece(begin, end); }) {}

StreamPieceSort::~StreamPieceSort() = default;

void StreamPieceSort::records_ready(uint64_t available) { pieces_.arrived(std::min(available, capacity_)); }

uint64_t StreamPieceSort::sort_piece(uint64_t begin, uint64_t end) {
  const uint64_t n = end - begin;
  const uint32_t rs = layout_.record_size();
  KeyEntry* e = reinterpret_cast<KeyEntry*>(entries_buf_.data()) + begin;
  KeyEntry* tmp = reinterpret_cast<KeyEntry*>(scratch_buf_.data()) + begin;
  const size_t slices = n < kMinPieceRecords ? 1 : pool_.size();
  std::vector<size_t> cut(slices + 1);
  for (size_t s = 0; s <= slices; ++s) cut[s] = split_point(n, slices, s);
  Stopwatch t;
  pool_.parallel_for(slices, [&](size_t s) {
    for (size_t i = cut[s]; i < cut[s + 1]; ++i) {
      e[i].prefix = layout_.prefix(records_ + (begin + i) * rs);
      e[i].index = static_cast<uint32_t>(begin + i);
    }
    sort_entries(layout_, records_, e + cut[s], tmp + cut[s], cut[s + 1] - cut[s]);
  });
  timings_.sort_s += t.lap();
  if (slices > 1) {
    const KeyEntry* merged = merge_entry_runs(pool_, layout_, records_, e, tmp, cut);
    if (merged != e) {
      parallel_copy(pool_, reinterpret_cast<uint8_t*>(e), reinterpret_cast<const uint8_t*>(merged), n * sizeof(KeyEntry));
    }
    timings_.merge_s += t.lap();
  }
  return end;
}

void StreamPieceSort::finish(uint32_t* order) { finish_in_parts(order, pieces_.available(), [](uint64_t) {}); }

void StreamPieceSort::finish_in_parts(uint32_t* order, uint64_t count, const OrderProgress& ready) {
  pieces_.finish(std::min(count, capacity_));
  const Stopwatch t;
  merge_sorted_pieces(pool_, layout_, records_, reinterpret_cast<const KeyEntry*>(entries_buf_.data()),
                      pieces_.bounds(), order, ready);
  timings_.merge_s += t.seconds();
  ++timings_.chunks;
}

}  // namespace gsort
