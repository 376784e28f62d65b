#include "pipeline/external_sort.h"

#include <future>
#include <memory>
#include <string>
#include <vector>

#include "core/errors.h"
#include "io/input_set.h"
#include "io/output_target.h"
#include "io/run_file.h"
#include "io/temp_dir.h"
#include "pipeline/memory_plan.h"
#include "pipeline/record_output.h"
#include "pipeline/run_merger.h"

namespace gsort {
namespace {

constexpr uint64_t kReadSliceBytes = 64ull << 20;  // progress granularity of in-memory reads

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
    Stopwatch open_time;
    InputSet inputs(ctx_.config.inputs, rs_);
    OutputTarget output(ctx_.config.output);
    plan_ = plan_memory(ctx_.config.memory_bytes, rs_, ctx_.backend.host_bytes_per_record(), inputs.size_known(),
                        inputs.total_bytes() / rs_);
    if (inputs.size_known()) {
      report_.input_bytes = inputs.total_bytes();
      ctx_.log.info("input: " + std::to_string(report_.input_bytes) + " bytes, " +
                    plural(report_.input_bytes / rs_, "record"));
    }
    ctx_.log.info("memory: " + std::to_string(ctx_.config.memory_bytes) + " bytes budget, chunks of " +
                  plural(plan_.chunk_records, "record") + ", merge fan-in " + std::to_string(plan_.fan_in));

    std::vector<PendingSource> pending;
    if (ctx_.config.mode == Mode::kMerge) {
      for (auto& source : inputs.take_sources()) pending.push_back(PendingSource{std::move(source), "", -1});
      merge_all(std::move(pending), output);
    } else if (plan_.in_memory) {
      sort_in_memory(inputs, output);
    } else {
      pending = form_runs(inputs, output);
      if (!pending.empty()) merge_all(std::move(pending), output);
    }
    Stopwatch commit_time;
    output.commit();
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
    RecordOutput out(sink_to(output.file()), rs_, plan_.block_bytes, unique_by_);
    out.append_gathered(ctx_.pool, records, order, count);
    out.finish();
    report_.output_records += out.records_written();
    report_.add_phase("gather+write", t.seconds());
  }

  void sort_in_memory(InputSet& inputs, OutputTarget& output) {
    report_.in_memory = true;
    const uint64_t capacity = plan_.chunk_records;
    HostBuffer records = ctx_.backend.allocate_host(capacity * rs_);
    std::unique_ptr<ChunkSortSession> session = ctx_.backend.begin_chunk(records.data());
    Stopwatch t;
    const uint64_t slice = std::max<uint64_t>(1, kReadSliceBytes / rs_);
    uint64_t count = 0;
    for (;;) {
      const uint64_t got = inputs.read(records.data() + count * rs_, std::min(slice, capacity - count));
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
    RunWriter writer(run.run_path, rs_);
    RecordOutput out([&writer, this](const uint8_t* data, size_t bytes) { writer.append(data, bytes / rs_); },
                     rs_, plan_.block_bytes, nullptr);
    out.append_gathered(ctx_.pool, records, order, count);
    out.finish();
    writer.finish();
    report_.temp_bytes += sizeof(RunHeader) + count * rs_;
    ++report_.runs;
    runs.push_back(std::move(run));
    report_.add_phase("write runs", t.seconds());
  }

  // Merges the sources of one group into `out`, then deletes their run files.
  void merge_group(std::vector<PendingSource>& group, RecordOutput& out) {
    std::vector<std::unique_ptr<RecordSource>> sources;
    bool reads_inputs = false;
    for (PendingSource& p : group) {
      reads_inputs |= p.open != nullptr;
      sources.push_back(p.open ? std::move(p.open) : std::make_unique<RunReader>(p.run_path, rs_));
    }
    MergeOptions options;
    options.window_records = plan_.source_records;
    options.verify_sources_sorted = ctx_.config.mode == Mode::kMerge;
    const uint64_t merged = merge_sources(sources, ctx_.layout, ctx_.backend, ctx_.pool, options, out);
    if (reads_inputs) {
      report_.input_records += merged;
      report_.input_bytes += merged * rs_;
    }
    sources.clear();
    for (PendingSource& p : group) {
      if (!p.run_path.empty()) temp_dir().remove(p.run_path, p.run_slot);
    }
  }

  void merge_all(std::vector<PendingSource> pending, OutputTarget& output) {
    while (pending.size() > plan_.fan_in) {
      Stopwatch t;
      std::vector<PendingSource> next;
      for (size_t begin = 0; begin < pending.size(); begin += plan_.fan_in) {
        const size_t end = std::min<size_t>(pending.size(), begin + plan_.fan_in);
        if (end - begin == 1) {
          next.push_back(std::move(pending[begin]));
          continue;
        }
        std::vector<PendingSource> group;
        for (size_t i = begin; i < end; ++i) group.push_back(std::move(pending[i]));
        PendingSource merged;
        merged.run_path = temp_dir().new_file("merged", &merged.run_slot);
        RunWriter writer(merged.run_path, rs_);
        RecordOutput out([&writer, this](const uint8_t* data, size_t bytes) { writer.append(data, bytes / rs_); },
                         rs_, plan_.block_bytes, nullptr);
        merge_group(group, out);
        out.finish();
        writer.finish();
        report_.temp_bytes += sizeof(RunHeader) + writer.record_count() * rs_;
        next.push_back(std::move(merged));
      }
      pending = std::move(next);
      ++report_.merge_passes;
      report_.add_phase("merge passes", t.seconds());
      ctx_.log.info("merge pass " + std::to_string(report_.merge_passes) + ": " +
                    plural(pending.size(), "run") + " left");
    }
    Stopwatch t;
    RecordOutput out(sink_to(output.file()), rs_, plan_.block_bytes, unique_by_);
    merge_group(pending, out);
    out.finish();
    report_.output_records += out.records_written();
    ++report_.merge_passes;
    report_.add_phase("final merge", t.seconds());
  }

  const SortContext& ctx_;
  const uint32_t rs_;
  const KeyLayout* unique_by_;
  MemoryPlan plan_;
  SortReport report_;
  std::unique_ptr<TempDir> temp_;
};

}  // namespace

SortReport external_sort(const SortContext& ctx) { return ExternalSort(ctx).run(); }

}  // namespace gsort
