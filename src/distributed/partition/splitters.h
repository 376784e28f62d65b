// The N-1 splitters that cut the records' total order into one range per
// rank. A position in that order is the record's normalised key followed by
// its global record number (big-endian), compared with memcmp: records with
// equal keys are ordered by input position, so the order is total, equal
// keys are cut deterministically (heavy duplicates spread over ranks) and
// a stable sort of each range, concatenated in rank order, is the stable
// sort of the whole.
#pragma once

#include <cstdint>
#include <vector>

#include "src/distributed/partition/input_slice.h"
#include "src/distributed/ranks/rank_context.h"
#include "src/distributed/ranks/rank_group.h"
#include "src/distributed/ranks/rank_stats.h"
#include "src/keys/key_layout.h"

namespace gsort {

// Writes a record's position (key_width + 8 bytes) to `out`.
void write_order_position(const KeyLayout& layout, const uint8_t* record, uint64_t global_index, uint8_t* out);

class Splitters {
 public:
  // `positions`: the splitters' positions, back to back, in order.
  Splitters(uint32_t position_bytes, std::vector<uint8_t> positions);

  // The rank whose range holds this position: the number of splitters at
  // or before it.
  int destination(const uint8_t* position) const;
  // The same for `record`, global record `global_index`, found by the key's
  // first 8 normalised bytes (layout.prefix) where they differ from every
  // splitter's, else by the whole position, written to `scratch`
  // (position_bytes()). `layout` is the one the positions were made with.
  int destination(const KeyLayout& layout, const uint8_t* record, uint64_t global_index, uint8_t* scratch) const;
  uint32_t position_bytes() const { return bytes_; }
  int count() const { return count_; }
  // The splitters' positions, back to back, in order.
  const std::vector<uint8_t>& positions() const { return positions_; }

 private:
  // The first rank among [lo, hi) splitters whose position is after `position`.
  int search(const uint8_t* position, int lo, int hi) const;

  uint32_t bytes_;
  std::vector<uint8_t> positions_;
  int count_;
  std::vector<uint64_t> prefixes_;  // each splitter's first 8 key bytes (zero past the key), big-endian
};

// The positions of records spread evenly over this rank's slice (reads
// the inputs; may throw).
std::vector<uint8_t> sample_slice(const ConcatenatedInputs& inputs, RecordRange slice, const KeyLayout& layout,
                                  int ranks);

// Collective, never throws: every rank's samples are gathered by all, and
// every rank sorts them alike and takes N-1 evenly spaced ones.
Splitters choose_splitters(const RankGroup& group, const std::vector<uint8_t>& samples, uint32_t position_bytes);
// The same from all the samples at hand, on one rank: N-1 evenly spaced
// ones in order, for `ranks` ranks.
Splitters splitters_of(const std::vector<uint8_t>& samples, uint32_t position_bytes, int ranks);

// Step 2 of the distributed sort, collective: samples of every rank's
// slice give the splitters. Failures end every rank's sort together.
// Fills stats.splitters_s.
Splitters agree_on_splitters(RankContext& rank, const ConcatenatedInputs& inputs, RecordRange slice,
                             RankStats& stats);

}  // namespace gsort
