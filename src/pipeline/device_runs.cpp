#include "src/pipeline/device_runs.h"

#include <memory>
#include <string>

#include "src/core/errors.h"
#include "src/core/log.h"
#include "src/core/process_clock.h"
#include "src/merge/run_output.h"
#include "src/merge/run_stack.h"
#include "src/pipeline/sort_on_device.h"
#include "src/pipeline/temp_compression.h"

namespace gsort {
namespace {

// One run: `count` records read into the device, sorted, written as they
// come back; --compress-temp is settled on the first run's first slice.
PendingSource device_run(const RunFormation& f, ResidentSort& resident, uint64_t count, SortReport& report) {
  const SortContext& ctx = f.ctx;
  const double start = process_seconds();
  const uint64_t got = read_into_device(ctx.pool, resident, count, f.inputs);
  report.input_records += got;
  resident.sort();
  const std::vector<uint32_t> in_order = identity_order(resident.slot_records());
  const uint8_t* records = nullptr;
  uint64_t n = resident.next_sorted(&records);
  decide_run_compression(ctx, f.plan.source_records, RunSample{records, in_order.data(), n}, f.runs, report.temp);
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
  if (!device_tier_wanted(ctx.config, known, known ? f.inputs.total_bytes() : 0, false)) return false;
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
  f.progress.phase("forming runs");
  uint64_t read = 0;
  while (read < total) {
    const uint64_t count = std::min(capacity, total - read);
    std::string why;
    std::unique_ptr<ResidentSort> resident = ctx.backend.hold_records(count, slot_bytes, &why);
    if (!resident) throw DeviceError("the GPU cannot hold run " + std::to_string(report.runs + 1) + ": " + why);
    report.device_resident_bytes = std::max(report.device_resident_bytes, resident->device_bytes());
    const uint64_t before = report.input_records;
    waiting.push(device_run(f, *resident, count, report));
    if (report.input_records == before) break;  // the input ended early
    read = report.input_records;
  }
  report.input_bytes = report.input_records * rs;
  ctx.log.info("device: formed " + plural(report.runs, "run") + " of up to " + plural(capacity, "record") +
               " in GPU memory");
  formed = waiting.take();
  return true;
}

}  // namespace gsort
