#include "src/pipeline/sort_buffer.h"

#include <algorithm>
#include <memory>
#include <optional>

#include "io/output/mapped_destination.h"
#include "io/output/output_target.h"
#include "src/core/stopwatch.h"
#include "src/output/final_output.h"
#include "src/pipeline/direct_write.h"
#include "src/pipeline/memory_plan.h"
#include "src/report/progress.h"

namespace gsort {

SortReport sort_filled_buffer(const SortContext& ctx, uint8_t* records, uint64_t count,
                              const SortedBufferOutput& out) {
  const uint32_t rs = ctx.layout.record_size();
  const MemoryPlan plan = plan_memory(ctx.config.memory_bytes, rs, ctx.backend.host_bytes_per_record(), true, count);
  SortReport report;
  report.in_memory = true;
  report.input_records = count;
  report.input_bytes = count * rs;
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
    out.ends(records + uint64_t{order[0]} * rs, records + uint64_t{order[count - 1]} * rs);
  }
  FinalOutput destination(output ? destination_sink(*output, nullptr) : out.sink, rs, plan.block_bytes,
                          ctx.config.unique ? &ctx.layout : nullptr, nullptr);
  std::optional<MappedDestination> mapped;
  if (out.map) {
    destination.allow_mapping(out.map);
  } else if (output && !output->is_direct()) {
    mapped.emplace(output->file());
    destination.allow_mapping(
        [&mapped](uint64_t bytes, uint64_t block) { return mapped->map(bytes, block); });
  }
  ProgressMeter meter(false);
  DirectWrite(destination, ctx.pool, meter, report).write(records, order.get(), count);
  if (mapped) mapped->finish(report.output_records * rs, ctx.config.fsync);
  report.output_way = output_way_name(destination.way());
  if (output) output->commit(ctx.config.fsync);
  return report;
}

}  // namespace gsort
