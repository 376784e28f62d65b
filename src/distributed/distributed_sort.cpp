#include "src/distributed/distributed_sort.h"

#include <unistd.h>

#include <cerrno>
#include <memory>
#include <optional>
#include <vector>

#include "io/output_parts.h"
#include "io/output_target.h"
#include "src/config/config_layout.h"
#include "src/core/log.h"
#include "src/distributed/distributed_output.h"
#include "src/distributed/input_slice.h"
#include "src/distributed/local_sort.h"
#include "src/distributed/exchange_choice.h"
#include "src/distributed/rank_boundaries.h"
#include "src/distributed/rank_config.h"
#include "src/distributed/rank_fence.h"
#include "src/distributed/rank_stats.h"
#include "src/distributed/refusals.h"
#include "src/distributed/shuffle.h"
#include "src/distributed/test_fault.h"
#include "src/core/stopwatch.h"
#include "src/report/sort_report.h"

namespace gsort {
namespace {

class DistributedSort {
 public:
  DistributedSort(const RankGroup& group, const SortConfig& config)
      : group_(group), fence_(group), config_(config_for_rank(config, group)), layout_(layout_of(config_)),
        log_(config.verbose && group.rank == 0), output_(group, config_) {}

  void run() {
    prepare();
    choose_splitters_phase();
    exchange_phase();
    local_sort_phase();
    settle_boundaries();
    Stopwatch writing;
    output_.write(fence_, *part_, drop_first_ ? layout_.record_size() : 0, stats_.output_records);
    stats_.write_s = writing.seconds();
    report();
  }

 private:
  void prepare() {
    fence_.attempt([&] {
      refuse_unsupported_with_ranks(config_);
      inputs_.emplace(config_.inputs, config_.record_size);
      slice_ = rank_slice(inputs_->total_records(), group_.rank, group_.size);
      stats_.slice_records = slice_.size();
      output_.prepare();
    });
    fence_.agree();
    output_.share_destination();
    log_.info("distributed: " + std::to_string(group_.size) + " ranks, " +
              std::to_string(inputs_->total_records()) + " records");
  }

  void choose_splitters_phase() {
    Stopwatch t;
    std::vector<uint8_t> samples;
    fence_.attempt([&] { samples = sample_slice(*inputs_, slice_, layout_, group_.size); });
    fence_.agree();
    splitters_.emplace(choose_splitters(group_, samples, layout_.width() + 8));
    stats_.splitters_s = t.seconds();
  }

  void exchange_phase() {
    Stopwatch t;
    const ShufflePlan plan =
        plan_shuffle(inputs_->total_records(), group_.size, config_.record_size, config_.memory_bytes);
    std::unique_ptr<Exchange> exchange;
    std::string data_plane;
    fence_.attempt([&] {
      received_ = std::make_unique<ReceivedFiles>(config_.temp_dir, group_.size, config_.record_size);
    });
    fence_.agree();
    // Its own attempt: making an exchange is collective, so every rank must
    // reach it (make_exchange votes on failures inside).
    fence_.attempt([&] { exchange = make_exchange(group_, config_, plan.chunk_records, &data_plane); });
    fence_.agree();
    log_.info("exchange: " + std::to_string(plan.rounds) + " rounds of up to " +
              std::to_string(plan.chunk_records) + " records per rank, through " + data_plane);
    shuffle_slice(group_, fence_, ShuffleInput{*inputs_, slice_, layout_, *splitters_}, plan, *exchange, *received_);
    const ExchangeTally& tally = exchange->tally();
    stats_.bytes_sent = tally.bytes_sent;
    stats_.bytes_received = tally.bytes_received;
    stats_.rounds = tally.rounds;
    stats_.exchange_wait_s = tally.wait_s;
    stats_.received_records = received_->records();
    stats_.exchange_s = t.seconds();
  }

  void local_sort_phase() {
    Stopwatch t;
    fence_.attempt([&] {
      part_ = output_.make_part();
      const SortReport report = sort_received(config_, layout_, received_->paths(), part_->path());
      received_->remove();
      // After the sort: a failure here leaves a finished part to clean up.
      test_fault_point("sort", group_.rank);
      stats_.runs = report.runs;
      part_records_ = report.output_records;
      ends_ = read_part_ends(part_->path(), part_records_, layout_);
    });
    fence_.agree();
    stats_.sort_s = t.seconds();
  }

  void settle_boundaries() {
    const std::vector<PartEnds> all = gather_part_ends(group_, ends_, layout_.width());
    uint64_t received_total = 0;
    MPI_Allreduce(&stats_.received_records, &received_total, 1, MPI_UINT64_T, MPI_SUM, group_.comm);
    fence_.attempt([&] {
      if (received_total != inputs_->total_records()) {
        throw Error("internal error: the exchange delivered " + std::to_string(received_total) + " of " +
                    std::to_string(inputs_->total_records()) + " records");
      }
      drop_first_ = drops_first_record(all, group_.rank, config_.unique);
    });
    fence_.agree();
    stats_.output_records = part_records_ - (drop_first_ ? 1 : 0);
  }

  void report() {
    stats_.total_s = total_.seconds();
    const std::vector<RankStats> all = gather_rank_stats(group_, stats_);
    if (group_.rank != 0) return;
    for (const std::string& line : describe_rank_stats(all, config_.record_size)) log_.info(line);
    output_.write_stats(rank_stats_json(all, config_.record_size, total_.seconds()));
  }

  Stopwatch total_;
  const RankGroup& group_;
  RankFence fence_;
  const SortConfig config_;
  const KeyLayout layout_;
  const Log log_;
  DistributedOutput output_;
  std::optional<ConcatenatedInputs> inputs_;
  RecordRange slice_;
  std::optional<Splitters> splitters_;
  std::unique_ptr<ReceivedFiles> received_;
  std::unique_ptr<LocalPart> part_;
  uint64_t part_records_ = 0;
  PartEnds ends_;
  bool drop_first_ = false;
  RankStats stats_;
};

}  // namespace

void distributed_sort(const RankGroup& group, const SortConfig& config) { DistributedSort(group, config).run(); }

}  // namespace gsort
