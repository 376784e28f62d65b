#include "src/pipeline/sort_buffer.h"

#include <algorithm>
#include <memory>
#include <optional>

#include "io/output/output_target.h"
#include "src/core/stopwatch.h"
#include "src/pipeline/memory_plan.h"
#include "src/pipeline/sort_job.h"

namespace gsort {

SortReport sort_filled_buffer(const SortContext& ctx, uint8_t* records, uint64_t count,
                              const SortedBufferOutput& out) {
  SortJob job(ctx);
  ProgressMeter meter(false);
  job.meter = &meter;
  job.budget = ctx.config.memory_bytes;
  job.plan = plan_memory(job.budget, job.rs, ctx.backend.host_bytes_per_record(), true, count);
  SortReport& report = job.report;
  report.in_memory = true;
  report.input_records = count;
  report.input_bytes = count * job.rs;
  // Made first, as external_sort does: an unwritable destination fails
  // before the sort.
  std::optional<OutputTarget> output;
  if (!out.sink) output.emplace(out.path);
  const Stopwatch t;
  std::unique_ptr<ChunkSortSession> session = ctx.backend.begin_chunk(records);
  session->records_ready(count);
  std::unique_ptr<uint32_t[]> order(new uint32_t[std::max<uint64_t>(count, 1)]);
  session->finish(order.get());
  report.add_phase("sort", t.seconds());
  if (out.ends && count > 0) {
    out.ends(records + uint64_t{order[0]} * job.rs, records + uint64_t{order[count - 1]} * job.rs);
  }
  if (output) {
    job.write_sorted_output(records, order.get(), count, *output);
    output->commit(ctx.config.fsync);
  } else {
    job.write_sorted_output(records, order.get(), count, out.sink);
  }
  return report;
}

}  // namespace gsort
