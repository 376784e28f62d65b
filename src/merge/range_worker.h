// One worker of a final merge in ranges, whatever its unit (a record:
// record_unit.h; a line: src/merge/line_unit.h): merges one range of
// every run at a time straight into its place in the output. Each run's
// part is read in pieces (merge_run.h) into a buffer of the worker's own, a
// run file's checked block by block. A loser tree over the runs' heads
// (src/algo/keyed_loser_tree.h: each head's first key word, then the
// unit's tie, then the earlier run) picks each next unit, copied once into
// the output. With -u, a unit whose key equals the last kept one's is
// dropped (ranges never split a key under -u).
//
// The unit is a policy type:
//   Unit::Head                    a run's current unit; .word its first key word
//   bool take(Head&, HeadBytes&)  the next unit from [at, end), refilled
//                                 through HeadBytes::refill; false at the end
//   int tie(const Head&, const Head&)           order past the first words
//   size_t copy(const Head&, uint8_t* out)      its bytes written, returned
//   bool same_key(const Head& last, const Head&) -u: equal keys (last kept)
//   void keep(Head& last, const Head&, const uint8_t* copied)  -u: remember
//   uint64_t hash(const Head&)                   a dropped unit's, --verify
//   uint64_t units_in(const uint8_t*, uint64_t bytes)  units in whole bytes
#pragma once

#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "src/algo/keyed_loser_tree.h"
#include "src/core/host_buffer.h"
#include "src/core/stopwatch.h"
#include "src/merge/merge_run.h"

namespace gsort {

// What merging one range left.
struct RangeResult {
  uint64_t kept = 0;              // units written, from the range's start
  uint64_t bytes = 0;             // bytes written
  uint64_t dropped = 0;           // units -u dropped
  uint64_t dropped_hash_sum = 0;  // their hash sum, where asked for (--verify)
  double read_s = 0;              // reading and checking the runs' blocks
};

// A run's part of the range as its head reads it: the piece it last handed
// out, [at, end), and the pieces to come.
struct HeadBytes {
  std::unique_ptr<RunPieces> pieces;
  uint32_t unit_bytes = 1;
  const uint8_t* at = nullptr;
  const uint8_t* end = nullptr;
  std::atomic<uint64_t>* bytes_read = nullptr;
  double* read_s = nullptr;

  // The next piece; false at the end of the run's part.
  bool refill() {
    const Stopwatch reading;
    uint64_t n = 0;
    at = pieces->next(&n);
    end = at + n * unit_bytes;
    if (bytes_read) bytes_read->fetch_add(n * unit_bytes, std::memory_order_relaxed);
    *read_s += reading.seconds();
    return n > 0;
  }
};

struct RangeWorkerOptions {
  uint64_t buffer_bytes = 0;  // each run's read buffer (at least its least_buffer_bytes())
  bool unique = false;        // -u
  bool sum_dropped = false;   // sum what -u drops (--verify)
};

template <typename Unit>
class RangeWorker {
 public:
  // runs: in the merge's order.
  RangeWorker(const std::vector<const MergeRun*>& runs, const Unit& unit, const RangeWorkerOptions& options)
      : runs_(runs),
        unit_(unit),
        options_(options),
        buffers_(HostBuffer::allocate_pageable(runs.size() * options.buffer_bytes)) {}

  // Merges units [begin[r], end[r]) of each run r into `out`, which has
  // room for all of them. bytes_read (may be null) is advanced by the
  // bytes each buffer delivers.
  RangeResult merge(const std::vector<uint64_t>& begin, const std::vector<uint64_t>& end, uint8_t* out,
                    std::atomic<uint64_t>* bytes_read) {
    RangeResult result;
    std::vector<Head> heads;
    heads.reserve(runs_.size());
    for (size_t r = 0; r < runs_.size(); ++r) {
      if (begin[r] >= end[r]) continue;
      Head h;
      h.bytes.pieces = runs_[r]->pieces(begin[r], end[r], buffers_.data() + r * options_.buffer_bytes,
                                        options_.buffer_bytes);
      h.bytes.unit_bytes = runs_[r]->unit_bytes();
      h.bytes.bytes_read = bytes_read;
      h.bytes.read_s = &result.read_s;
      heads.push_back(std::move(h));
    }
    if (heads.size() == 1 && !options_.unique) {
      // One run: its units as they are.
      HeadBytes& b = heads.front().bytes;
      while (b.refill()) {
        const size_t n = static_cast<size_t>(b.end - b.at);
        std::memcpy(out + result.bytes, b.at, n);
        result.bytes += n;
      }
      result.kept = unit_.units_in(out, result.bytes);
      return result;
    }
    merge_heads(heads, out, result);
    return result;
  }

 private:
  struct Head {
    HeadBytes bytes;
    typename Unit::Head unit;
  };

  void merge_heads(std::vector<Head>& heads, uint8_t* out, RangeResult& result) {
    const Unit& unit = unit_;
    // Equal first words: the unit's tie, then the run (heads are in the
    // runs' order, and earlier runs hold earlier input: a stable merge).
    const auto tie = [&heads, &unit](size_t a, size_t b) {
      const int c = unit.tie(heads[a].unit, heads[b].unit);
      return c != 0 ? c < 0 : a < b;
    };
    std::vector<uint64_t> words(heads.size());
    std::vector<bool> live(heads.size());
    for (size_t i = 0; i < heads.size(); ++i) {
      live[i] = unit.take(heads[i].unit, heads[i].bytes);
      words[i] = heads[i].unit.word;
    }
    KeyedLoserTree<decltype(tie)> tree(words, live, tie);
    typename Unit::Head last;  // the last unit kept (-u)
    bool any = false;
    uint8_t* dst = out;
    while (!tree.empty()) {
      Head& h = heads[tree.winner()];
      if (options_.unique && any && unit.same_key(last, h.unit)) {
        ++result.dropped;
        if (options_.sum_dropped) result.dropped_hash_sum += unit.hash(h.unit);
      } else {
        const size_t n = unit.copy(h.unit, dst);
        if (options_.unique) unit.keep(last, h.unit, dst);
        any = true;
        dst += n;
        ++result.kept;
      }
      const bool more = unit.take(h.unit, h.bytes);
      tree.advance(more, h.unit.word);
    }
    result.bytes = static_cast<uint64_t>(dst - out);
  }

  const std::vector<const MergeRun*> runs_;
  const Unit unit_;
  const RangeWorkerOptions options_;
  HostBuffer buffers_;  // one buffer per run, end to end
};

}  // namespace gsort
