#include "src/merge/range_merge.h"

#include <cstring>

#include "io/file/checksum.h"
#include "src/core/stopwatch.h"
#include "src/algo/keyed_loser_tree.h"

namespace gsort {

// A run's part of the range: its cursor, and the records of the piece it
// last handed out not yet merged, [at, end).
struct RangeMerger::Head {
  RunCursor cursor;
  const uint8_t* at = nullptr;
  const uint8_t* end = nullptr;
  uint64_t prefix = 0;  // the layout's prefix of *at

  // The next piece; false at the end of the run's part. Its time goes to
  // *read_s.
  bool refill(uint32_t rs, std::atomic<uint64_t>* bytes_read, double* read_s) {
    const Stopwatch reading;
    uint64_t n = 0;
    at = cursor.next(&n);
    end = at + n * rs;
    if (bytes_read) bytes_read->fetch_add(n * rs, std::memory_order_relaxed);
    *read_s += reading.seconds();
    return n > 0;
  }
};

RangeMerger::RangeMerger(const std::vector<const RunView*>& runs, const KeyLayout& layout, uint64_t buffer_bytes,
                         const KeyLayout* unique_by, bool sum_dropped)
    : runs_(runs),
      layout_(layout),
      unique_by_(unique_by),
      sum_dropped_(sum_dropped),
      buffer_bytes_(buffer_bytes),
      buffers_(HostBuffer::allocate_pageable(runs.size() * buffer_bytes)) {}

RangeResult RangeMerger::merge(const std::vector<uint64_t>& begin, const std::vector<uint64_t>& end, uint8_t* out,
                               std::atomic<uint64_t>* bytes_read) {
  const uint32_t rs = layout_.record_size();
  std::vector<Head> heads;
  double read_s = 0;
  for (size_t r = 0; r < runs_.size(); ++r) {
    if (begin[r] >= end[r]) continue;
    Head h{RunCursor(buffers_.data() + r * buffer_bytes_, buffer_bytes_)};
    h.cursor.open(*runs_[r], begin[r], end[r]);
    if (!h.refill(rs, bytes_read, &read_s)) continue;
    h.prefix = layout_.prefix(h.at);
    heads.push_back(std::move(h));
  }
  RangeResult result;
  if (heads.size() == 1 && !unique_by_) {
    // One run: its records as they are.
    Head& h = heads.front();
    do {
      const size_t bytes = static_cast<size_t>(h.end - h.at);
      std::memcpy(out + result.kept * rs, h.at, bytes);
      result.kept += bytes / rs;
    } while (h.refill(rs, bytes_read, &read_s));
  } else {
    result = merge_heads(heads, out, bytes_read, &read_s);
  }
  result.read_s = read_s;
  return result;
}

RangeResult RangeMerger::merge_heads(std::vector<Head>& heads, uint8_t* out, std::atomic<uint64_t>* bytes_read,
                                     double* read_s) {
  const uint32_t rs = layout_.record_size();
  const bool whole = layout_.prefix_is_whole_key();
  const KeyLayout& layout = layout_;
  // Equal prefixes: by the rest of the key, then run (heads are in the
  // runs' order).
  const auto tie = [&heads, &layout, whole](size_t a, size_t b) {
    if (!whole) {
      const int c = layout.compare_after_prefix(heads[a].at, heads[b].at);
      if (c != 0) return c < 0;
    }
    return a < b;
  };
  std::vector<uint64_t> prefixes;
  for (const Head& h : heads) prefixes.push_back(h.prefix);
  KeyedLoserTree<decltype(tie)> tree(prefixes, std::vector<bool>(heads.size(), true), tie);
  RangeResult result;
  uint8_t* dst = out;
  const uint8_t* last = nullptr;  // the last record kept, in the output
  uint64_t last_prefix = 0;
  while (!tree.empty()) {
    Head& h = heads[tree.winner()];
    if (unique_by_ && last && h.prefix == last_prefix && (whole || layout.compare_after_prefix(last, h.at) == 0)) {
      ++result.dropped;
      if (sum_dropped_) result.dropped_hash_sum += hash_record(h.at, rs);
    } else {
      std::memcpy(dst, h.at, rs);
      last = dst;
      last_prefix = h.prefix;
      dst += rs;
    }
    h.at += rs;
    const bool live = h.at < h.end || h.refill(rs, bytes_read, read_s);
    if (live) h.prefix = layout.prefix(h.at);
    tree.advance(live, h.prefix);
  }
  result.kept = static_cast<uint64_t>(dst - out) / rs;
  return result;
}

}  // namespace gsort
