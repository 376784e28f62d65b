#include "src/distributed/output/rank_boundaries.h"

#include <cstring>

#include "io/file/file.h"
#include "src/core/errors.h"

namespace gsort {

PartEnds part_ends_of(const uint8_t* first, const uint8_t* last, const KeyLayout& layout) {
  PartEnds ends;
  ends.empty = false;
  ends.first_key.resize(layout.width());
  ends.last_key.resize(layout.width());
  layout.normalise(first, ends.first_key.data());
  layout.normalise(last, ends.last_key.data());
  return ends;
}

PartEnds read_part_ends(const std::string& part, uint64_t records, const KeyLayout& layout, uint64_t offset) {
  if (records == 0) return PartEnds();
  const uint32_t rs = layout.record_size();
  File f = File::open_read(part);
  std::vector<uint8_t> first(rs), last(rs);
  const uint64_t last_at = offset + (records - 1) * rs;
  if (f.pread_full(first.data(), rs, offset) != rs || f.pread_full(last.data(), rs, last_at) != rs) {
    throw IoError(part + ": the sorted part ended early");
  }
  return part_ends_of(first.data(), last.data(), layout);
}

std::vector<PartEnds> gather_part_ends(const RankGroup& group, const PartEnds& mine, uint32_t key_width) {
  // One fixed-size entry per rank: an "has records" byte, then both keys.
  const size_t entry = 1 + 2 * size_t{key_width};
  std::vector<uint8_t> local(entry, 0), all(entry * static_cast<size_t>(group.size));
  if (!mine.empty) {
    local[0] = 1;
    std::memcpy(&local[1], mine.first_key.data(), key_width);
    std::memcpy(&local[1 + key_width], mine.last_key.data(), key_width);
  }
  MPI_Allgather(local.data(), static_cast<int>(entry), MPI_BYTE, all.data(), static_cast<int>(entry), MPI_BYTE,
                group.comm);
  std::vector<PartEnds> ends(static_cast<size_t>(group.size));
  for (size_t r = 0; r < ends.size(); ++r) {
    const uint8_t* e = all.data() + r * entry;
    if (!e[0]) continue;
    ends[r].empty = false;
    ends[r].first_key.assign(e + 1, e + 1 + key_width);
    ends[r].last_key.assign(e + 1 + key_width, e + entry);
  }
  return ends;
}

bool drops_first_record(const std::vector<PartEnds>& ends, int rank, bool unique) {
  const PartEnds& mine = ends[static_cast<size_t>(rank)];
  if (mine.empty) return false;
  for (int lower = rank - 1; lower >= 0; --lower) {
    const PartEnds& before = ends[static_cast<size_t>(lower)];
    if (before.empty) continue;
    const int c = std::memcmp(before.last_key.data(), mine.first_key.data(), mine.first_key.size());
    if (c > 0) {
      throw Error("internal error: the parts of ranks " + std::to_string(lower) + " and " + std::to_string(rank) +
                  " are out of order");
    }
    return unique && c == 0;
  }
  return false;
}

bool settle_boundaries(RankContext& rank, const PartEnds& ends, uint64_t received_records, uint64_t total_records) {
  const std::vector<PartEnds> all = gather_part_ends(rank.group, ends, rank.layout.width());
  uint64_t received_total = 0;
  MPI_Allreduce(&received_records, &received_total, 1, MPI_UINT64_T, MPI_SUM, rank.group.comm);
  bool drop_first = false;
  rank.fence.attempt([&] {
    if (received_total != total_records) {
      throw Error("internal error: the exchange delivered " + std::to_string(received_total) + " of " +
                  std::to_string(total_records) + " records");
    }
    drop_first = drops_first_record(all, rank.group.rank, rank.config.unique);
  });
  rank.fence.agree();
  return drop_first;
}

}  // namespace gsort
