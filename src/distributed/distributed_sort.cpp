#include "src/distributed/distributed_sort.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <exception>
#include <thread>
#include <memory>
#include <optional>
#include <vector>

#include "io/file/file.h"
#include "io/output/output_parts.h"
#include "io/output/output_target.h"
#include "src/config/config_layout.h"
#include "src/core/log.h"
#include "src/distributed/output/distributed_output.h"
#include "src/distributed/partition/input_slice.h"
#include "src/distributed/local/local_sort.h"
#include "src/distributed/exchange/exchange_choice.h"
#include "src/distributed/partition/gpu_partition.h"
#include "io/output/mapped_output_range.h"
#include "src/distributed/output/rank_boundaries.h"
#include "src/distributed/ranks/rank_config.h"
#include "src/distributed/ranks/rank_fence.h"
#include "src/distributed/ranks/rank_stats.h"
#include "src/distributed/local/receive_preparation.h"
#include "src/distributed/refusals.h"
#include "src/distributed/exchange/shuffle.h"
#include "src/distributed/ranks/test_fault.h"
#include "src/distributed/exchange/receive_sinks.h"
#include "src/distributed/exchange/whole_slice.h"
#include "src/core/scoped_join.h"
#include "src/core/stopwatch.h"
#include "src/core/thread_pool.h"
#include "src/report/sort_report.h"

namespace gsort {
namespace {

class DistributedSort {
 public:
  DistributedSort(const RankGroup& group, const SortConfig& config)
      : group_(group), fence_(group), config_(config_for_rank(config, group)), layout_(layout_of(config_)),
        log_(config.verbose && group.rank == 0), output_(group, config_), pool_(config_.threads) {}

  void run() {
    // The GPU's context is made beside the splitters, for the partition.
    std::thread warming([this] { warm_up_gpu(config_); });
    ScopedJoin join_warming(warming);
    prepare();
    choose_splitters_phase();
    exchange_phase();
    local_sort_phase();
    settle_boundaries();
    Stopwatch writing;
    output_.write(fence_, part_.get(), drop_first_ ? layout_.record_size() : 0, stats_.output_records);
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
    // Collective: every rank takes the same kind of exchange.
    const bool whole =
        on_every_rank(group_, whole_slice_fits(largest_slice(), config_.record_size, config_.memory_bytes));
    const ShufflePlan plan =
        plan_shuffle(inputs_->total_records(), group_.size, config_.record_size, config_.memory_bytes);
    // No pair trades more than the largest slice: small inputs get small
    // staging buffers (device memory for NCCL, /dev/shm for shm).
    const uint64_t round_records = std::max<uint64_t>(
        1, std::min(largest_slice(), whole ? whole_round_records(group_.size, config_.record_size) : plan.chunk_records));
    std::unique_ptr<Exchange> exchange;
    std::string data_plane;
    const ShuffleInput in{*inputs_, slice_, layout_, *splitters_};
    // A whole slice is read, classified and its records for other ranks
    // placed on another thread while the exchange starts here (NCCL's
    // set-up takes a second or two); only this thread calls MPI.
    ClassifiedSlice slice;
    PartitionedSlice sends;  // owning nothing where the preparation's send buffer holds them
    std::exception_ptr read_error;
    std::thread reader;
    std::optional<ReceivePreparation> preparation;
    ScopedJoin join_reader(reader);  // before the preparation goes: the reader uses it
    if (whole && may_receive_in_memory()) prepare_receive(preparation);
    if (whole) {
      reader = std::thread([&] {
        try {
          const Stopwatch reading;
          slice = read_and_classify(in, group_, config_, pool_);
          stats_.partitioned_on_gpu = slice.on_gpu ? 1 : 0;
          stats_.map_s = slice.map_s;
          stats_.classify_s = slice.classify_s;
          const Stopwatch placing;
          const uint64_t to_send = records_to_send(slice, group_.rank);
          uint8_t* room = preparation ? preparation->send_room(to_send) : nullptr;
          sends = place_sends(slice, group_.rank, config_.record_size, room, pool_);
          stats_.place_s = placing.seconds();
          stats_.read_s = reading.seconds();
        } catch (...) {
          read_error = std::current_exception();
        }
      });
    }
    // Its own attempt: making an exchange is collective, so every rank must
    // reach it (make_exchange votes on failures inside).
    const Stopwatch starting;
    fence_.attempt([&] { exchange = make_exchange(group_, config_, round_records, pool_, &data_plane); });
    stats_.start_s = starting.seconds();
    join_reader.join();
    if (whole && slice.partition) {
      const std::string where = slice.on_gpu ? "GPU (rank 0: " + slice.partition->describe() + ")"
                                             : "CPU (rank 0: " + slice.gpu_refusal + ")";
      log_.info("exchange: the slice is partitioned on the " + where);
    }
    fence_.attempt([&] {
      if (read_error) std::rethrow_exception(read_error);
    });
    fence_.agree();
    if (whole) {
      exchange_whole_slice(std::move(slice), std::move(sends), round_records, *exchange, data_plane, preparation);
    } else {
      log_.info("exchange: the slices are streamed (larger than -S allows whole), " + std::to_string(plan.rounds) +
                " rounds of up to " + std::to_string(plan.chunk_records) + " records per rank, through " + data_plane);
      fence_.attempt([&] {
        received_ = std::make_unique<ReceivedFiles>(config_.temp_dir, group_.size, config_.record_size);
      });
      fence_.agree();
      shuffle_slice(group_, fence_, in, plan, *exchange, *received_, pool_);
      stats_.received_records = received_->records();
    }
    const ExchangeTally& tally = exchange->tally();
    stats_.bytes_sent = tally.bytes_sent;
    stats_.bytes_received = tally.bytes_received;
    stats_.rounds = tally.rounds;
    stats_.exchange_wait_s = tally.wait_s;
    stats_.exchange_s = t.seconds();
  }

  // Whether received records may land in memory at all (--verify checks
  // them in files; a test hook forces files).
  bool may_receive_in_memory() const { return !config_.verify && !test_receive_in_files(); }

  // Starts making the local sort's buffers (and backend) for a partition up
  // to a quarter above the mean, as whole_slice_fits allows for, where -S
  // holds them beside the slice.
  void prepare_receive(std::optional<ReceivePreparation>& preparation) {
    const uint64_t n = static_cast<uint64_t>(group_.size), slice = slice_.size();
    const uint64_t receive = inputs_->total_records() / n * 5 / 4 + 1;
    uint64_t send = std::min(slice, slice * (n - 1) / n * 5 / 4 + 1);
    const auto fits = [&] { return (slice + receive + send) * config_.record_size <= config_.memory_bytes; };
    if (!fits()) send = 0;
    if (fits()) preparation.emplace(config_, layout_, pool_, receive, send);
  }

  // Waits for the preparation's backend, takes it, and frees the rest.
  void take_prepared_backend(std::optional<ReceivePreparation>& preparation) {
    preparation->wait();
    backend_ = preparation->take_backend();
    preparation.reset();
  }

  uint64_t largest_slice() const {
    uint64_t largest = 0;
    for (int r = 0; r < group_.size; ++r) {
      largest = std::max(largest, rank_slice(inputs_->total_records(), r, group_.size).size());
    }
    return largest;
  }

  // Whole slices: read and classified at once, the records for other ranks
  // already in their send buckets; the rank's own bucket is moved straight
  // into the local sort's buffer while the others are traded in large
  // rounds, landing beside it where they fit.
  void exchange_whole_slice(ClassifiedSlice classified, PartitionedSlice sends, uint64_t round_records,
                            Exchange& exchange, const std::string& data_plane,
                            std::optional<ReceivePreparation>& preparation) {
    const int self = group_.rank;
    const std::vector<uint64_t> from_each = incoming_counts(group_, classified.counts());
    uint64_t incoming = 0;
    for (uint64_t n : from_each) incoming += n;
    const uint64_t own_count = classified.counts()[static_cast<size_t>(self)];
    const uint64_t send_records = records_to_send(classified, self);
    const bool in_memory = may_receive_in_memory() && incoming < UINT32_MAX &&
                           incoming * (config_.record_size + 8) + send_records * config_.record_size <=
                               config_.memory_bytes;
    std::unique_ptr<ReceiveSink> sink;
    MemorySink* memory = nullptr;
    FileSink* files = nullptr;
    HostBuffer own_records;  // the own bucket, where it goes to a file
    uint8_t* own_place = nullptr;
    // Where the records land: the local sort's buffer, taken from the
    // preparation now or (landing_early) after the trade.
    uint8_t* landing = nullptr;
    bool landing_early = false;
    const bool pin_first = exchange.wants_pinned_buffers();
    fence_.attempt([&] {
      const Stopwatch allocating;
      if (preparation) {
        if (in_memory) {
          preparation->exchange_started(pin_first ? send_records : 0, incoming);
        } else {
          preparation->skip_backend();
        }
        // An exchange that copies on the host fills the receive buffer
        // while it is pinned for the local sort (0.4-0.5 s for 6 GB).
        if (in_memory && !pin_first) landing = preparation->receive_room(incoming);
        landing_early = landing != nullptr;
        if (!landing_early) {
          preparation->wait_for_buffers();
          // The send buckets lie in its buffer where they own none: take it before it goes.
          if (!sends.owned) sends.owned = preparation->take_send_buffer(send_records);
          if (in_memory) received_buffer_ = preparation->take_receive_buffer(incoming);
          // Kept where the backend still starts (beside the trade) and the buffer fits.
          if (!received_buffer_) take_prepared_backend(preparation);
        }
      }
      if (in_memory) {
        if (!landing && !received_buffer_) {
          if (!backend_) backend_ = make_receive_backend(config_, layout_, pool_, incoming);
          received_buffer_ = backend_->allocate_host(std::max<uint64_t>(incoming, 1) * config_.record_size);
        }
        if (!landing) landing = received_buffer_.data();
        auto sink_in_memory = std::make_unique<MemorySink>(landing, from_each, config_.record_size);
        memory = sink_in_memory.get();
        own_place = memory->place(self, own_count);
        sink = std::move(sink_in_memory);
      } else {
        received_ = std::make_unique<ReceivedFiles>(config_.temp_dir, group_.size, config_.record_size);
        auto sink_in_files = std::make_unique<FileSink>(*received_, group_.size, config_.record_size, round_records);
        files = sink_in_files.get();
        own_records = HostBuffer::allocate_pageable(std::max<uint64_t>(own_count, 1) * config_.record_size);
        own_place = own_records.data();
        sink = std::move(sink_in_files);
      }
      stats_.allocate_s = allocating.seconds();
    });
    fence_.agree();
    log_.info("exchange: whole slices, " + std::string(in_memory ? "received in memory" : "received in files") +
              " (rank 0), rounds of up to " + std::to_string(round_records) + " records per pair of ranks, through " +
              data_plane);
    // The own bucket's copy (memory bandwidth) runs beside the trade (the
    // link's); they write disjoint parts of the buffer.
    double own_s = 0;
    std::exception_ptr own_error;
    std::thread placing_own([&] {
      try {
        const Stopwatch placing;
        place_own(classified, self, own_place);
        own_s = placing.seconds();
      } catch (...) {
        own_error = std::current_exception();
      }
    });
    ScopedJoin join_placing(placing_own);
    trade_buckets(group_, fence_, sends, config_.record_size, round_records, exchange, *sink);
    join_placing.join();
    stats_.place_s += own_s;
    sends.owned = HostBuffer();
    classified = ClassifiedSlice();  // the slice and its destinations
    fence_.attempt([&] {
      if (own_error) std::rethrow_exception(own_error);
      if (preparation) {
        const Stopwatch starting_backend;
        if (landing_early) {
          // The send buffer, still the preparation's, goes with it.
          preparation->wait_for_buffers();
          received_buffer_ = preparation->take_receive_buffer(incoming);
          if (received_buffer_.data() != landing) throw Error("internal error: the receive buffer moved");
        }
        take_prepared_backend(preparation);
        stats_.allocate_s += starting_backend.seconds();
      }
      if (memory) memory->landed(self, own_count);
      if (files) files->keep_own(self, own_records.data(), own_count);
    });
    fence_.agree();
    if (received_) {
      fence_.attempt([&] { received_->finish(); });
      fence_.agree();
    }
    stats_.received_records = incoming;
  }

  void local_sort_phase() {
    Stopwatch t;
    // Without -u a rank's share of one output file is exactly what it
    // received, so its offset is known now: a rank that sorted in memory
    // writes there directly instead of writing a part and copying it.
    const bool at_offsets = !config_.output_parts && !config_.unique;
    const uint64_t offset = at_offsets ? output_.offset_of(stats_.received_records * config_.record_size) : 0;
    fence_.attempt([&] {
      SortReport report;
      if (received_) {
        if (at_offsets) {
          report = sort_received_at(offset);
        } else {
          part_ = output_.make_part();
          report = sort_received(config_, layout_, received_->paths(), part_->path(), pool_);
        }
        received_->remove();
      } else if (at_offsets) {
        report = sort_in_memory_at(offset);
      } else {
        part_ = output_.make_part();
        report = sort_received_in_memory(config_, layout_, *backend_, pool_, received_buffer_.data(),
                                         stats_.received_records, part_->path());
      }
      if (backend_) {
        const Stopwatch releasing;
        received_buffer_ = HostBuffer();
        backend_.reset();
        stats_.release_s = releasing.seconds();
      }
      // After the sort: a failure here leaves a finished part to clean up.
      test_fault_point("sort", group_.rank);
      stats_.runs = report.runs;
      for (const auto& [name, seconds] : report.phases) {
        if (name == "sort" || name == "sort runs") stats_.order_s += seconds;
        if (name == "gather+write") stats_.part_write_s += seconds;
      }
      part_records_ = report.output_records;
      if (part_) ends_ = read_part_ends(part_->path(), part_records_, layout_);
    });
    fence_.agree();
    stats_.sort_s = t.seconds();
  }

  // The received files' external sort merged straight into the one output
  // file from `offset` on (through a descriptor standing there), instead
  // of into a part that is copied there after: a streamed rank writes its
  // records once, not twice.
  SortReport sort_received_at(uint64_t offset) {
    File out = File::open_update(output_.shared_path());
    if (::lseek(out.fd(), static_cast<off_t>(offset), SEEK_SET) < 0) {
      throw IoError("cannot seek in the output: " + describe_errno(output_.shared_path(), errno));
    }
    log_.info("write: rank 0 merges into its range of the output");
    SortReport report =
        sort_received(config_, layout_, received_->paths(), "/dev/fd/" + std::to_string(out.fd()), pool_);
    if (report.output_records != stats_.received_records) {
      throw Error("internal error: the sorted part does not fill its range of the output");
    }
    ends_ = read_part_ends(output_.shared_path(), report.output_records, layout_, offset);
    if (config_.fsync) out.flush_data_to_disk();
    out.close();
    return report;
  }

  // The received records sorted in memory and written straight into the
  // one output file at `offset`; the part's ends taken from the buffer.
  SortReport sort_in_memory_at(uint64_t offset) {
    const uint64_t part_bytes = stats_.received_records * config_.record_size;
    std::unique_ptr<MappedOutputRange> mapped;
    if (!test_output_by_pwrite()) mapped = MappedOutputRange::map(output_.shared_path(), offset, part_bytes, pool_);
    log_.info(std::string("write: rank 0 fills its range of the output ") +
              (mapped ? "through a mapping (page faults, not the inode's lock)" : "with pwrite"));
    File out;  // where it is not mapped
    if (!mapped) out = File::open_update(output_.shared_path());
    uint64_t at = 0;  // bytes of the range written
    SortedBufferOutput to_range;
    to_range.sink = [&](const uint8_t* data, size_t bytes) {
      if (at + bytes > part_bytes) throw Error("internal error: the sorted part outgrew its range of the output");
      if (mapped) {
        std::memcpy(mapped->data() + at, data, bytes);
      } else {
        out.pwrite_all(data, bytes, offset + at);
      }
      at += bytes;
    };
    to_range.ends = [&](const uint8_t* first, const uint8_t* last) { ends_ = part_ends_of(first, last, layout_); };
    SortReport report = sort_received_in_memory(config_, layout_, *backend_, pool_, received_buffer_.data(),
                                                stats_.received_records, std::string(), to_range);
    if (at != part_bytes) throw Error("internal error: the sorted part is shorter than its range of the output");
    if (mapped) {
      mapped->finish(config_.fsync);
      return report;
    }
    if (config_.fsync) out.flush_data_to_disk();
    out.close();
    return report;
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
  ThreadPool pool_;
  std::unique_ptr<ReceivedFiles> received_;  // where the received records are, or
  std::unique_ptr<SortBackend> backend_;      // the local sort's backend and
  HostBuffer received_buffer_;                // its buffer that holds them
  std::unique_ptr<LocalPart> part_;
  uint64_t part_records_ = 0;
  PartEnds ends_;
  bool drop_first_ = false;
  RankStats stats_;
};

}  // namespace

void distributed_sort(const RankGroup& group, const SortConfig& config) { DistributedSort(group, config).run(); }

}  // namespace gsort
