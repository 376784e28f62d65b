#include "src/pipeline/device_runs.h"

#include <algorithm>
#include <memory>
#include <string>
#include <thread>

#include "src/core/errors.h"
#include "src/core/log.h"
#include "src/core/process_clock.h"
#include "src/merge/run_output.h"
#include "src/merge/run_stack.h"
#include "src/pipeline/sort_on_device.h"
#include "src/pipeline/temp_compression.h"

namespace gsort {
namespace {

// While a compressed run is sorted, compressed and written, the disk has
// little to do (zstd is the slow part): the next run's first bytes are
// asked of the kernel meanwhile, into the page cache (up to half of -S), on
// a thread of its own, so that its read finds them there. Plain runs keep
// the disk writing: reading beside that was slower than after it
// (docs/benchmarks.md, the disk that does not read and write at once).
class NextRunAhead {
 public:
  NextRunAhead() = default;
  ~NextRunAhead() { wait(); }
  NextRunAhead(const NextRunAhead&) = delete;
  NextRunAhead& operator=(const NextRunAhead&) = delete;
  void start(const FileRange& range) {
    wait();
    if (range.fd < 0) return;
    thread_ = std::thread([range] { read_into_cache(range); });
    ++started_;
    bytes_ += range.bytes;
  }
  size_t started() const { return started_; }
  uint64_t bytes() const { return bytes_; }
  // Before the input is read again (its descriptor is the range's).
  void wait() {
    if (thread_.joinable()) thread_.join();
  }

 private:
  std::thread thread_;
  size_t started_ = 0;
  uint64_t bytes_ = 0;
};

// One run: `count` records read into the device, sorted, written as they
// come back; --compress-temp is settled on the first run's first slice.
// `next` records follow it (0: none): read ahead where the runs are compressed.
PendingSource device_run(const RunFormation& f, ResidentSort& resident, uint64_t count, uint64_t next,
                         NextRunAhead& ahead, SortReport& report) {
  const SortContext& ctx = f.ctx;
  const double start = process_seconds();
  ahead.wait();
  const uint64_t got = read_into_device(ctx.pool, resident, count, f.inputs);
  report.input_records += got;
  resident.sort();
  const std::vector<uint32_t> in_order = identity_order(resident.slot_records());
  const uint8_t* records = nullptr;
  uint64_t n = resident.next_sorted(&records);
  decide_run_compression(ctx, f.plan.source_records, RunSample{records, in_order.data(), n}, f.runs, report.temp);
  if (report.temp.compressed && next > 0 && got == count) {
    ahead.start(f.inputs.ahead(std::min(next * ctx.layout.record_size(), f.budget / 2)));
  }
  PendingSource run;
  RunOutput out(f.runs, "run", run, 1);
  for (; n > 0; n = resident.next_sorted(&records)) out.append_gathered(ctx.pool, records, in_order.data(), n);
  count_run(out.finish(), report);
  ++report.runs;
  report.add_span(PhaseSpan{"device run", "main", start, process_seconds()});
  return run;
}

}  // namespace

bool form_runs_on_device(const RunFormation& f, std::vector<PendingSource>& formed, SortReport& report) {
  const SortContext& ctx = f.ctx;
  const uint32_t rs = ctx.layout.record_size();
  const bool known = f.inputs.size_known();
  if (!device_tier_wanted(ctx.config, known, known ? f.inputs.total_bytes() : 0, false, rs)) return false;
  const uint64_t slot_bytes = device_tier_slot_bytes(f.budget);
  const uint64_t capacity = ctx.backend.resident_capacity(slot_bytes);
  if (capacity < kDeviceRunsMinRatio * f.plan.chunk_records) {
    if (capacity > 0) {
      ctx.log.info("device: runs of " + plural(capacity, "record") + " would not be fewer than the host's; " +
                   "the host forms them");
    }
    return false;
  }
  const uint64_t total = f.inputs.total_bytes() / rs;
  RunStack waiting(f.merges, report);
  NextRunAhead ahead;  // after the runs' stack: a read-ahead ends first
  f.progress.phase("forming runs");
  uint64_t read = 0;
  while (read < total) {
    const uint64_t count = std::min(capacity, total - read);
    std::string why;
    std::unique_ptr<ResidentSort> resident = ctx.backend.hold_records(count, slot_bytes, &why);
    if (!resident) throw DeviceError("the GPU cannot hold run " + std::to_string(report.runs + 1) + ": " + why);
    report.device_resident_bytes = std::max(report.device_resident_bytes, resident->device_bytes());
    const uint64_t before = report.input_records;
    const uint64_t next = std::min(capacity, total - read - count);
    waiting.push(device_run(f, *resident, count, next, ahead, report));
    if (report.input_records == before) break;  // the input ended early
    read = report.input_records;
  }
  report.input_bytes = report.input_records * rs;
  ctx.log.info("device: formed " + plural(report.runs, "run") + " of up to " + plural(capacity, "record") +
               " in GPU memory");
  if (ahead.started() > 0) {
    ctx.log.info("device: " + mebibytes_text(ahead.bytes()) + " of the input read ahead into the page cache, for " +
                 plural(ahead.started(), "run") + ", while the compressed run before each was written");
  }
  formed = waiting.take();
  return true;
}

}  // namespace gsort
