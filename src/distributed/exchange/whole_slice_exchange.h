// The exchange of a slice that fits in memory (whole_slice.h has its
// pieces), as a sequence of states. Each state is a type whose one step
// consumes it and returns the next, so the steps cannot come out of order:
//
//   WholeSliceReading     begin(): the local sort's buffers are prepared
//                         where -S holds them (receive_preparation.h), and
//                         the slice is read, classified and its records for
//                         other ranks placed in their buckets, on threads of
//                         their own, while the caller makes the exchange
//     .classified()                      -> WholeSliceClassified
//   WholeSliceClassified  every rank has its buckets
//     .land(exchange, rounds, described) -> WholeSliceLanding
//   WholeSliceLanding     the counts are traded and the records' landing is
//                         chosen and made (landing.h)
//     .trade(exchange)                   -> WholeSliceTraded
//   WholeSliceTraded      the other ranks' buckets were traded in rounds
//                         while the own bucket was copied beside them
//     .settle()                          -> ReceivedRecords
//
// Each step is collective: every rank takes it, and a failure on any rank
// ends every rank's exchange at the step's end (RanksFailed).
#pragma once

#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <string>

#include "src/distributed/exchange/exchange.h"
#include "src/distributed/exchange/landing.h"
#include "src/distributed/exchange/shuffle.h"
#include "src/distributed/exchange/whole_slice.h"
#include "src/distributed/local/receive_preparation.h"
#include "src/distributed/local/received_records.h"
#include "src/distributed/ranks/rank_context.h"
#include "src/distributed/ranks/rank_stats.h"

namespace gsort {

class WholeSliceTraded {
 public:
  // The own bucket counted in, the local sort's buffer and backend (or
  // its files) ready: what this rank received.
  ReceivedRecords settle() &&;

 private:
  friend class WholeSliceLanding;
  WholeSliceTraded(RankContext& rank, RankStats& stats, std::unique_ptr<Landing> landing, uint64_t incoming,
                   std::exception_ptr own_error);

  RankContext& rank_;
  RankStats& stats_;
  std::unique_ptr<Landing> landing_;
  uint64_t incoming_;
  std::exception_ptr own_error_;  // what the own bucket's copy threw
};

class WholeSliceLanding {
 public:
  WholeSliceTraded trade(Exchange& exchange) &&;

 private:
  friend class WholeSliceClassified;
  WholeSliceLanding(RankContext& rank, RankStats& stats, ClassifiedSlice slice, PartitionedSlice sends,
                    std::unique_ptr<Landing> landing, uint64_t incoming, uint64_t round_records);

  RankContext& rank_;
  RankStats& stats_;
  ClassifiedSlice slice_;
  PartitionedSlice sends_;
  std::unique_ptr<Landing> landing_;
  uint64_t incoming_, round_records_;
};

class WholeSliceClassified {
 public:
  // Rounds move at most `round_records` records per pair of ranks;
  // `data_plane` names the exchange for -v.
  WholeSliceLanding land(Exchange& exchange, uint64_t round_records, const std::string& data_plane) &&;

 private:
  friend class WholeSliceReading;
  WholeSliceClassified(RankContext& rank, RankStats& stats, ClassifiedSlice slice, PartitionedSlice sends,
                       std::optional<ReceivePreparation> preparation);

  RankContext& rank_;
  RankStats& stats_;
  ClassifiedSlice slice_;
  PartitionedSlice sends_;  // owning nothing where the preparation's send buffer holds them
  std::optional<ReceivePreparation> preparation_;
};

class WholeSliceReading {
 public:
  // Not collective; only this thread calls MPI meanwhile. `in` must
  // outlive it.
  static WholeSliceReading begin(RankContext& rank, const ShuffleInput& in, RankStats& stats);
  WholeSliceReading(WholeSliceReading&&) noexcept;
  ~WholeSliceReading();  // joins the reader
  // Waits for the reader.
  WholeSliceClassified classified() &&;

 private:
  struct Reader;
  explicit WholeSliceReading(std::unique_ptr<Reader> reader);
  std::unique_ptr<Reader> reader_;
};

}  // namespace gsort
