// Where one rank's sorted part meets the next: every rank learns every
// part's first and last key. With -u a rank drops its first record when its
// key equals the last key of the nearest lower rank that has records (the
// equal run started there, and its first record is the one kept); and the
// order across every boundary is checked, a cheap end-to-end check of the
// splitters.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/distributed/ranks/rank_context.h"
#include "src/distributed/ranks/rank_group.h"
#include "src/keys/key_layout.h"

namespace gsort {

// A part's ends: empty when it holds no records, else the normalised keys
// of its first and last record.
struct PartEnds {
  bool empty = true;
  std::vector<uint8_t> first_key, last_key;
};

// The ends of a part whose first and last records are these.
PartEnds part_ends_of(const uint8_t* first, const uint8_t* last, const KeyLayout& layout);

// Reads the ends of a sorted part holding `records` records from byte
// `offset` of the file on (a rank's range of the one output file).
PartEnds read_part_ends(const std::string& part, uint64_t records, const KeyLayout& layout, uint64_t offset = 0);

// Collective, never throws: every rank gets every rank's ends, by rank.
std::vector<PartEnds> gather_part_ends(const RankGroup& group, const PartEnds& mine, uint32_t key_width);

// Whether `rank` drops its first record (-u). Throws Error when the parts
// are out of order at its lower boundary.
bool drops_first_record(const std::vector<PartEnds>& ends, int rank, bool unique);

// Step 5 of the distributed sort, collective: every rank learns every
// part's ends, checks that the ranks received `total_records` between them
// (`received_records` here), and whether this rank drops its first record
// (-u). Failures end every rank's sort together.
bool settle_boundaries(RankContext& rank, const PartEnds& ends, uint64_t received_records, uint64_t total_records);

}  // namespace gsort
