#include "src/pipeline/device_runs.h"

#include <algorithm>
#include <memory>
#include <string>

#include "src/core/errors.h"
#include "src/core/log.h"
#include "src/core/process_clock.h"
#include "src/merge/run_output.h"
#include "src/merge/run_stack.h"
#include "src/pipeline/held_device_run.h"
#include "src/pipeline/next_run_ahead.h"
#include "src/pipeline/sort_on_device.h"
#include "src/pipeline/temp_compression.h"

namespace gsort {
namespace {

// The device's memory for the next run, of `count` records with slots of
// slot_bytes; a device that cannot give it is a DeviceError.
std::unique_ptr<ResidentSort> hold_run(const RunFormation& f, uint64_t count, uint64_t slot_bytes,
                                       SortReport& report) {
  std::string why;
  std::unique_ptr<ResidentSort> resident = f.ctx.backend.hold_records(count, slot_bytes, &why);
  if (!resident) throw DeviceError("the GPU cannot hold run " + std::to_string(report.runs + 1) + ": " + why);
  report.device_resident_bytes = std::max(report.device_resident_bytes, resident->device_bytes());
  return resident;
}

// One run: `count` records read into the device, sorted, written as they
// come back; --compress-temp is settled on the first run's first slice.
// `next` records follow it (0: none): read ahead where the runs are compressed.
PendingSource device_run(const RunFormation& f, ResidentSort& resident, uint64_t count, uint64_t next,
                         NextRunAhead& ahead, SortReport& report) {
  const SortContext& ctx = f.ctx;
  const double start = process_seconds();
  const uint64_t got = ahead.read_into(ctx.pool, resident, count);
  report.input_records += got;
  resident.sort();
  const std::vector<uint32_t> in_order = identity_order(resident.slot_records());
  const uint8_t* records = nullptr;
  uint64_t n = resident.next_sorted(&records);
  decide_run_compression(ctx, f.plan.source_records, RunSample{records, in_order.data(), n}, f.runs, report.temp);
  if (report.temp.compressed && next > 0 && got == count) {
    ahead.start(next);
  }
  PendingSource run;
  RunOutput out(f.runs, "run", run, 1);
  for (; n > 0; n = resident.next_sorted(&records)) out.append_gathered(ctx.pool, records, in_order.data(), n);
  count_run(out.finish(), report);
  ++report.runs;
  report.add_span(PhaseSpan{"device run", "main", start, process_seconds()});
  return run;
}

// The last run, sorted and kept in the device for the final merge
// (held_device_run.h), through slots a quarter of the others' size: they
// stay pinned while the merge's windows take the rest of -S.
PendingSource held_run(const RunFormation& f, uint64_t count, uint64_t slot_bytes, NextRunAhead& ahead,
                       SortReport& report) {
  const SortContext& ctx = f.ctx;
  const double start = process_seconds();
  const uint64_t held_slot_bytes = std::max<uint64_t>(1, slot_bytes / 4);
  std::unique_ptr<ResidentSort> resident = hold_run(f, count, held_slot_bytes, report);
  const uint64_t got = ahead.read_into(ctx.pool, *resident, count);
  report.input_records += got;
  resident->sort();
  ++report.runs;
  ++report.device_held_runs;
  report.add_span(PhaseSpan{"device run (held)", "main", start, process_seconds()});
  const uint32_t rs = ctx.layout.record_size();
  const uint64_t staging = 2 * std::min(held_slot_bytes / rs, count) * rs;
  return held_device_run(std::move(resident), got, rs, staging);
}

// The records of each run: as many as the device holds, but for the first.
// Where the last run is held, the first takes what is left over, so that
// the held one is as large as the device allows; else the last does.
std::vector<uint64_t> run_sizes(uint64_t total, uint64_t capacity, bool last_held) {
  const uint64_t runs = (total + capacity - 1) / capacity;
  std::vector<uint64_t> sizes(runs, capacity);
  if (runs > 0) (last_held ? sizes.front() : sizes.back()) = total - (runs - 1) * capacity;
  return sizes;
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
  const bool hold_last = f.hold_last_device_run && total > capacity;
  const std::vector<uint64_t> sizes = run_sizes(total, capacity, hold_last);
  RunStack waiting(f.merges, report);
  NextRunAhead ahead(f.inputs, rs, f.budget / 2);  // after the runs' stack: a read-ahead ends first
  f.progress.phase("forming runs");
  for (size_t r = 0; r < sizes.size(); ++r) {
    const uint64_t before = report.input_records;
    if (hold_last && r + 1 == sizes.size()) {
      waiting.push(held_run(f, sizes[r], slot_bytes, ahead, report));
      break;
    }
    std::unique_ptr<ResidentSort> resident = hold_run(f, sizes[r], slot_bytes, report);
    const uint64_t next = r + 1 < sizes.size() ? sizes[r + 1] : 0;
    waiting.push(device_run(f, *resident, sizes[r], next, ahead, report));
    if (report.input_records - before < sizes[r]) break;  // the input ended early
  }
  report.input_bytes = report.input_records * rs;
  ctx.log.info("device: formed " + plural(report.runs, "run") + " of up to " + plural(capacity, "record") +
               " in GPU memory" + (hold_last ? "; the last waits there for the final merge" : ""));
  if (ahead.started() > 0) {
    ctx.log.info("device: " + mebibytes_text(ahead.bytes()) + " of the input read ahead into host memory, for " +
                 plural(ahead.started(), "run") + ", while the compressed run before each was written");
  }
  formed = waiting.take();
  return true;
}

}  // namespace gsort
