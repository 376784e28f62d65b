// What each rank did, gathered on rank 0 for -v and --stats: records in
// and out, bytes exchanged, and the time of each phase, including the time
// spent inside the exchange's collectives (moving data and waiting for the
// slowest rank).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/distributed/ranks/rank_group.h"

namespace gsort {

// Plain numbers only: gathered as bytes.
struct RankStats {
  uint64_t slice_records = 0;     // read from the inputs
  uint64_t received_records = 0;  // this rank's partition
  uint64_t output_records = 0;
  uint64_t bytes_sent = 0;        // to other ranks
  uint64_t bytes_received = 0;    // from other ranks
  uint64_t rounds = 0;
  uint64_t runs = 0;              // runs the local sort spilled
  uint64_t partitioned_on_gpu = 0;  // 1 where the whole slice was partitioned on the rank's GPU
  double splitters_s = 0;         // sampling and choosing the splitters
  double exchange_s = 0;          // reading, partitioning, trading, writing received files
  double read_s = 0;              // of which reading and partitioning a whole slice (beside the start)
  double map_s = 0;               //   of which mapping (or reading) it
  double classify_s = 0;          //   finding each record's destination
  double place_s = 0;             //   moving the records to their buckets
  double start_s = 0;             // of which making the exchange (NCCL's communicator and connections)
  double allocate_s = 0;          // of which waiting for the local backend and its buffer (prepared beside the read)
  double exchange_wait_s = 0;     // of which inside the collectives
  double sort_s = 0;              // the local external sort
  double order_s = 0;             // of which the sort itself (in memory: the backend's order)
  double part_write_s = 0;        // of which gathering and writing the part
  double release_s = 0;           // of which freeing the buffer and the backend
  double write_s = 0;             // into the output (or the part in place)
  double total_s = 0;
};

// Collective: rank 0 gets every rank's stats, in rank order; the others get
// an empty vector.
std::vector<RankStats> gather_rank_stats(const RankGroup& group, const RankStats& mine);

// -v lines (without the "gsort: " prefix), one per rank and a summary.
std::vector<std::string> describe_rank_stats(const std::vector<RankStats>& all, uint32_t record_size);

// --stats: one JSON object.
std::string rank_stats_json(const std::vector<RankStats>& all, uint32_t record_size, double total_s);

}  // namespace gsort
