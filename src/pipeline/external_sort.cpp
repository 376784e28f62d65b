#include "src/pipeline/external_sort.h"

#include <algorithm>
#include <atomic>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "src/core/errors.h"
#include "io/input_set.h"
#include "io/output_target.h"
#include "io/run_file.h"
#include "io/temp_dir.h"
#include "io/zstd_stream.h"
#include "src/pipeline/memory_plan.h"
#include "src/verify/output_check.h"
#include "src/report/progress.h"
#include "src/output/output_writer.h"
#include "src/merge/run_merger.h"

namespace gsort {
namespace {

constexpr uint64_t kReadSliceBytes = 64ull << 20;  // progress granularity of in-memory reads
// Compressed runs: frames of a quarter of a merge read window (a refill
// takes whole frames, and at most one frame per run waits aside), within
// these bounds: zstd slows down on frames under 64 KiB (incompressible data
// 1.7 GB/s in 32 KiB frames, 3.5 GB/s in 64 KiB ones, level 1).
constexpr uint64_t kMinRunFrameBytes = 64 << 10, kMaxRunFrameBytes = 1 << 20;

// A source waiting to be merged: an open input (--merge) or a spilled run.
struct PendingSource {
  std::unique_ptr<RecordSource> open;
  std::string run_path;
  int run_slot = -1;
};

std::string plural(uint64_t n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

class ExternalSort {
 public:
  explicit ExternalSort(const SortContext& ctx)
      : ctx_(ctx), rs_(ctx.layout.record_size()), unique_by_(ctx.config.unique ? &ctx.layout : nullptr) {}

  SortReport run() {
    const SortConfig& config = ctx_.config;
    InputTally tally;
    tally.hash_records = config.verify;
    tally_ = &tally;
    // First, so that waiting for a slow producer on a pipe shows too.
    ProgressMeter meter(ProgressMeter::wanted(config.progress));
    meter_ = &meter;
    meter.phase("reading", 0, &tally.stored_bytes);
    InputSet inputs(config.inputs, rs_, &tally);
    OutputTarget output(config.output);
    if (config.compress_output) {
      // zstd's worker threads overlap compression with the merge and the
      // writes. On 2 cores they gained nothing (docs/benchmarks.md, "zstd"),
      // so the writer thread compresses inline there.
      encoder_ = std::make_unique<ZstdOutputStream>(output.file(), config.output_level,
                                                    config.threads > 2 ? config.threads / 2 : 0);
    }
    std::unique_ptr<OutputCheck> check;
    if (config.verify) check = std::make_unique<OutputCheck>(ctx_.layout, config.unique, ctx_.pool);
    check_ = check.get();
    stored_total_ = inputs.stored_bytes();
    plan_ = plan_memory(ctx_.config.memory_bytes, rs_, ctx_.backend.host_bytes_per_record(), inputs.size_known(),
                        inputs.total_bytes() / rs_);
    if (config.compress_temp) {
      run_compression_.enabled = true;
      run_compression_.level = config.temp_level;
      run_compression_.frame_bytes =
          std::clamp<uint64_t>(plan_.source_records * rs_ / 4, kMinRunFrameBytes, kMaxRunFrameBytes);
      // Compression was the bottleneck of spilling (one core, ~350 MB/s):
      // frames of one block are compressed by all threads at once.
      run_compression_.pool = &ctx_.pool;
    }
    if (inputs.size_known()) {
      report_.input_bytes = inputs.total_bytes();
      ctx_.log.info("input: " + std::to_string(report_.input_bytes) + " bytes, " +
                    plural(report_.input_bytes / rs_, "record"));
    }
    ctx_.log.info("memory: " + std::to_string(ctx_.config.memory_bytes) + " bytes budget, chunks of " +
                  plural(plan_.chunk_records, "record") + ", merge fan-in " + std::to_string(plan_.fan_in));

    std::vector<PendingSource> pending;
    if (ctx_.config.mode == Mode::kMerge) {
      if (inputs.size_known()) progress_total_ = inputs.total_bytes();
      for (auto& source : inputs.take_sources()) pending.push_back(PendingSource{std::move(source), "", -1});
      merge_all(std::move(pending), output);
    } else if (plan_.in_memory) {
      sort_in_memory(inputs, output);
    } else {
      pending = form_runs(inputs, output);
      if (!pending.empty()) merge_all(std::move(pending), output);
    }
    report_.input_stored_bytes = tally.stored_bytes.load();
    report_.output_bytes = report_.output_records * rs_;
    if (check) {
      meter.phase("verifying", 0, nullptr);
      check->finish(tally.records.load(), tally.hash_sum.load());
      report_.verified = true;
      report_.verify_hash_sum = tally.hash_sum.load();
      ctx_.log.info("verified: " + plural(report_.output_records, "record") + " in order, matching the input");
    }
    Stopwatch commit_time;
    report_.output_stored_bytes = report_.output_bytes;
    if (encoder_) {
      encoder_->finish();
      report_.output_stored_bytes = encoder_->bytes_out();
    }
    meter.stop();
    output.commit(ctx_.config.fsync);
    report_.add_phase("commit", commit_time.seconds());
    report_.chunk_records = plan_.chunk_records;
    ctx_.log.info("runs: " + std::to_string(report_.runs));
    ctx_.log.info("merge passes: " + std::to_string(report_.merge_passes));
    return report_;
  }

 private:
  WriteBehind::Sink sink_to(File& file) {
    return [&file](const uint8_t* data, size_t bytes) { file.write_all(data, bytes); };
  }

  // The stream to the destination: its sink (through zstd with
  // --compress-output), the --verify check and the progress counter.
  std::unique_ptr<OutputWriter> final_output(OutputTarget& output) {
    WriteBehind::Sink sink = sink_to(output.file());
    if (encoder_) {
      ZstdOutputStream* encoder = encoder_.get();
      sink = [encoder](const uint8_t* data, size_t bytes) { encoder->write(data, bytes); };
    }
    auto out = std::make_unique<OutputWriter>(std::move(sink), rs_, plan_.block_bytes, unique_by_);
    out->final_output(check_);
    out->count_bytes(&written_bytes_);
    return out;
  }

  // A run file's writer, compressed with --compress-temp.
  RunWriter run_writer(const std::string& path) { return RunWriter(path, rs_, run_compression_); }

  TempDir& temp_dir() {
    if (!temp_) {
      temp_ = std::make_unique<TempDir>(ctx_.config.temp_dir);
      ctx_.log.info("temporary directory: " + temp_->path());
    }
    return *temp_;
  }

  // Writes records[order[..]] to the destination, with -u applied.
  void write_sorted_output(const uint8_t* records, const uint32_t* order, uint64_t count, OutputTarget& output) {
    Stopwatch t;
    meter_->phase("writing", count * rs_, &written_bytes_);
    std::unique_ptr<OutputWriter> out = final_output(output);
    out->append_gathered(ctx_.pool, records, order, count);
    out->finish();
    report_.output_records += out->records_written();
    report_.add_phase("gather+write", t.seconds());
  }

  void sort_in_memory(InputSet& inputs, OutputTarget& output) {
    report_.in_memory = true;
    const uint64_t capacity = plan_.chunk_records;
    Stopwatch allocate_time;
    HostBuffer records = ctx_.backend.allocate_host(capacity * rs_);
    report_.add_phase("allocate", allocate_time.seconds());
    std::unique_ptr<ChunkSortSession> session = ctx_.backend.begin_chunk(records.data());
    meter_->phase("reading", stored_total_, &tally_->stored_bytes);
    Stopwatch t;
    const uint64_t slice = std::max<uint64_t>(1, kReadSliceBytes / rs_);
    uint64_t count = 0;
    for (;;) {
      const uint64_t got = inputs.read(records.data() + count * rs_, std::min(slice, capacity - count), &ctx_.pool);
      if (got == 0) break;
      count += got;
      session->records_ready(count);
      if (count == capacity) break;
    }
    session->records_ready(count);
    report_.add_phase("read", t.seconds());
    report_.input_records = count;
    report_.input_bytes = count * rs_;

    t.restart();
    meter_->phase("sorting", 0, nullptr);
    std::unique_ptr<uint32_t[]> order(new uint32_t[std::max<uint64_t>(count, 1)]);
    session->finish(order.get());
    report_.add_phase("sort", t.seconds());
    write_sorted_output(records.data(), order.get(), count, output);
  }

  // Reads, sorts and spills chunks. When the whole input turns out to be one
  // chunk, it goes straight to the output and no run is returned.
  std::vector<PendingSource> form_runs(InputSet& inputs, OutputTarget& output) {
    std::vector<PendingSource> runs;
    const uint64_t chunk = plan_.chunk_records;
    HostBuffer buffers[2];
    buffers[0] = ctx_.backend.allocate_host(chunk * rs_);
    std::unique_ptr<uint32_t[]> order(new uint32_t[chunk]);
    double read_seconds = 0;
    meter_->phase("forming runs", stored_total_, &tally_->stored_bytes);
    const auto read_chunk = [&](uint8_t* into) {
      Stopwatch t;
      const uint64_t n = inputs.read(into, chunk);
      read_seconds += t.seconds();
      return n;
    };

    uint64_t count = read_chunk(buffers[0].data());
    for (int cur = 0;; cur ^= 1) {
      report_.input_records += count;
      // Read the next chunk in the background while this one is sorted and
      // written. A short chunk means the input has ended.
      std::future<uint64_t> next;
      if (count == chunk) {
        if (!buffers[cur ^ 1]) buffers[cur ^ 1] = ctx_.backend.allocate_host(chunk * rs_);
        uint8_t* into = buffers[cur ^ 1].data();
        next = std::async(std::launch::async, [&read_chunk, into] { return read_chunk(into); });
      }
      Stopwatch t;
      ctx_.backend.sort_order(buffers[cur].data(), count, order.get());
      report_.add_phase("sort", t.seconds());

      uint64_t next_count = 0;
      bool next_known = false;
      if (runs.empty()) {
        next_count = next.valid() ? next.get() : 0;
        next_known = true;
        if (next_count == 0) {  // the only chunk: no temp files needed
          report_.in_memory = true;
          write_sorted_output(buffers[cur].data(), order.get(), count, output);
          break;
        }
      }
      spill_run(buffers[cur].data(), order.get(), count, runs);
      if (!next_known) next_count = next.valid() ? next.get() : 0;
      if (next_count == 0) break;
      count = next_count;
    }
    report_.input_bytes = report_.input_records * rs_;
    report_.add_phase("read", read_seconds);
    if (!runs.empty()) ctx_.log.info("formed " + plural(runs.size(), "run") + " of up to " + plural(chunk, "record"));
    return runs;
  }

  void spill_run(const uint8_t* records, const uint32_t* order, uint64_t count, std::vector<PendingSource>& runs) {
    Stopwatch t;
    PendingSource run;
    run.run_path = temp_dir().new_file("run", &run.run_slot);
    RunWriter writer = run_writer(run.run_path);
    OutputWriter out([&writer, this](const uint8_t* data, size_t bytes) { writer.append(data, bytes / rs_); },
                     rs_, plan_.block_bytes, nullptr);
    out.append_gathered(ctx_.pool, records, order, count);
    out.finish();
    writer.finish();
    report_.temp_bytes += writer.file_bytes();
    report_.temp_record_bytes += count * rs_;
    ++report_.runs;
    runs.push_back(std::move(run));
    report_.add_phase("write runs", t.seconds());
  }

  // Merges the sources of one group into `out`, then deletes their run files.
  void merge_group(std::vector<PendingSource>& group, OutputWriter& out) {
    std::vector<std::unique_ptr<RecordSource>> sources;
    bool reads_inputs = false;
    for (PendingSource& p : group) {
      reads_inputs |= p.open != nullptr;
      sources.push_back(p.open ? std::move(p.open) : std::make_unique<RunReader>(p.run_path, rs_, &decoders_, true));
    }
    MergeOptions options;
    options.bytes_read = &merged_bytes_;
    options.window_records = merge_window_records(plan_, ctx_.config.memory_bytes, rs_,
                                                  ctx_.backend.host_bytes_per_record(), sources.size());
    options.verify_sources_sorted = ctx_.config.mode == Mode::kMerge;
    MergeTimings timings;
    const uint64_t merged = merge_runs(sources, ctx_.layout, ctx_.backend, ctx_.pool, options, out, &timings);
    report_.add_phase("merge: prepare batches", timings.prepare_s);
    report_.add_phase("merge: order", timings.order_s);
    report_.add_phase("merge: gather+write", timings.output_s);
    report_.add_phase("merge: waiting for batches", timings.wait_s);
    report_.add_phase("merge: setting up", timings.setup_s);
    report_.merge_batches += timings.batches;
    ctx_.log.info("merged " + plural(sources.size(), "source") + " in " + std::to_string(timings.batches) + (timings.batches == 1 ? " batch" : " batches") +
                  " of up to " + plural(timings.largest_batch, "record") + " (windows of " +
                  plural(options.window_records, "record") + ")");
    if (reads_inputs) {
      report_.input_records += merged;
      report_.input_bytes += merged * rs_;
    }
    Stopwatch removing;
    sources.clear();
    for (PendingSource& p : group) {
      if (!p.run_path.empty()) temp_dir().remove(p.run_path, p.run_slot);
    }
    report_.add_phase("merge: removing runs", removing.seconds());
  }

  void merge_all(std::vector<PendingSource> pending, OutputTarget& output) {
    if (report_.input_records > 0) progress_total_ = report_.input_records * rs_;
    while (pending.size() > plan_.fan_in) {
      Stopwatch t;
      meter_->phase("merge pass " + std::to_string(report_.merge_passes + 1), progress_total_, &merged_bytes_);
      std::vector<PendingSource> next;
      // When fewer than 2 x fan-in runs are left, merging just enough of the
      // first runs into one leaves fan-in runs for the final pass, and the
      // rest are not rewritten. Otherwise every group of fan-in runs merges.
      const size_t fan_in = plan_.fan_in;
      const size_t first_group = pending.size() < 2 * fan_in ? pending.size() - fan_in + 1 : fan_in;
      for (size_t begin = 0; begin < pending.size();) {
        const size_t width = begin == 0 ? first_group : (pending.size() < 2 * fan_in ? 1 : fan_in);
        const size_t end = std::min<size_t>(pending.size(), begin + width);
        const size_t group_begin = begin;
        begin = end;
        if (end - group_begin == 1) {
          next.push_back(std::move(pending[group_begin]));
          continue;
        }
        std::vector<PendingSource> group;
        for (size_t i = group_begin; i < end; ++i) group.push_back(std::move(pending[i]));
        PendingSource merged;
        merged.run_path = temp_dir().new_file("merged", &merged.run_slot);
        RunWriter writer = run_writer(merged.run_path);
        OutputWriter out([&writer, this](const uint8_t* data, size_t bytes) { writer.append(data, bytes / rs_); },
                         rs_, plan_.block_bytes, nullptr);
        merge_group(group, out);
        out.finish();
        writer.finish();
        report_.temp_bytes += writer.file_bytes();
        report_.temp_record_bytes += writer.record_count() * rs_;
        next.push_back(std::move(merged));
      }
      pending = std::move(next);
      ++report_.merge_passes;
      report_.add_phase("merge passes", t.seconds());
      ctx_.log.info("merge pass " + std::to_string(report_.merge_passes) + ": " +
                    plural(pending.size(), "run") + " left");
    }
    Stopwatch t;
    meter_->phase(report_.merge_passes > 0 ? "final merge" : "merging", progress_total_, &merged_bytes_);
    std::unique_ptr<OutputWriter> out = final_output(output);
    merge_group(pending, *out);
    Stopwatch flushing;
    out->finish();
    report_.add_phase("merge: flushing output", flushing.seconds());
    report_.output_records += out->records_written();
    ++report_.merge_passes;
    report_.add_phase("final merge", t.seconds());
  }

  const SortContext& ctx_;
  const uint32_t rs_;
  const KeyLayout* unique_by_;
  MemoryPlan plan_;
  SortReport report_;
  std::unique_ptr<TempDir> temp_;
  RunCompression run_compression_;
  RunDecoderPool decoders_;
  std::unique_ptr<ZstdOutputStream> encoder_;  // --compress-output
  OutputCheck* check_ = nullptr;                // --verify
  InputTally* tally_ = nullptr;
  ProgressMeter* meter_ = nullptr;
  uint64_t stored_total_ = 0;    // the inputs' size on disk, 0 if unknown
  uint64_t progress_total_ = 0;  // record bytes to merge, 0 if unknown
  std::atomic<uint64_t> written_bytes_{0};  // to the destination
  std::atomic<uint64_t> merged_bytes_{0};   // read by the merges
};

}  // namespace

SortReport external_sort(const SortContext& ctx) { return ExternalSort(ctx).run(); }

}  // namespace gsort
