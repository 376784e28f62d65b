// Where the whole-slice exchange lands what a rank receives, chosen once the
// counts are known (choose_landing), and how each ends once the trade is
// done. Three kinds, one class each:
//   in files         the partition is too large for memory (or --verify):
//                    one file per source (FileSink), the own bucket kept
//                    beside them;
//   in a buffer      the local sort's buffer, in hand before the trade:
//                    prepared (and pinned, for exchanges that want that),
//                    or allocated by the backend; a prepared backend goes
//                    on starting beside the trade;
//   while pinning    the prepared receive buffer, filled while it is pinned
//                    for the local sort (exchanges that copy on the host),
//                    which hides the pinning behind the trade.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "src/core/host_buffer.h"
#include "src/distributed/exchange/exchange.h"
#include "src/distributed/local/receive_preparation.h"
#include "src/distributed/local/received_records.h"
#include "src/distributed/ranks/rank_context.h"
#include "src/distributed/ranks/rank_stats.h"

namespace gsort {

// What this rank receives and sends in the whole-slice exchange.
struct LandingCounts {
  std::vector<uint64_t> from_each;  // from each rank, this one's own bucket included
  uint64_t incoming = 0;            // their sum: the rank's partition
  uint64_t own = 0;                 // of which its own bucket
  uint64_t send = 0;                // records it sends to the others
};

class Landing {
 public:
  virtual ~Landing() = default;
  // Where the traded records land.
  virtual ReceiveSink& sink() = 0;
  // Room for the rank's own bucket, filled beside the trade.
  virtual uint8_t* own_place() = 0;
  // After the trade and the own bucket's copy: the local sort's buffer and
  // backend in hand, the own bucket counted in, the files ready to read.
  virtual void settle(RankStats& stats) = 0;
  // After settle(): the records, for the local sort.
  virtual ReceivedRecords received() && = 0;
};

// Chooses where the records land, and makes room there (may throw; not
// collective). `preparation`: the local sort's buffers and backend made
// beside the read, where they were; the rest of what it made is freed, or
// kept until settle(). `send_buffer` takes its send buffer where the sends
// lie in it (an empty `send_buffer`). `pin_first`: the exchange wants its
// buffers pinned before a round. Rounds bring at most `round_records`
// records from each source.
std::unique_ptr<Landing> choose_landing(RankContext& rank, const LandingCounts& counts, bool in_memory, bool pin_first,
                                        std::optional<ReceivePreparation> preparation, HostBuffer* send_buffer,
                                        uint64_t round_records);

}  // namespace gsort
