#include "src/pipeline/sort_plan.h"

#include <algorithm>
#include <string>

#include "src/core/log.h"
#include "src/pipeline/sort_destination.h"

namespace gsort {
namespace {

// -S, raised to the least budget a sort runs under (memory_plan.h): said
// under -v, or, where the records alone need more, in a warning.
uint64_t budget_to_use(const SortContext& ctx) {
  const uint32_t rs = ctx.layout.record_size();
  const uint64_t asked = ctx.config.memory_bytes;
  const uint64_t backend_bytes = ctx.backend.host_bytes_per_record();
  const uint64_t least = minimum_budget(rs, backend_bytes);
  if (asked >= least) return asked;
  const std::string line = "-S " + std::to_string(asked) + " bytes raised to the minimum of " +
                           std::to_string(least) + " bytes";
  if (working_set_bytes(rs, backend_bytes) > asked && least > kMinBudgetBytes) {
    print_diagnostic("gsort: warning: " + line + " (what " + std::to_string(rs) +
                     "-byte records need: two chunk buffers and a two-way merge)");
  } else {
    ctx.log.info("memory: " + line);
  }
  return least;
}

// The threads asked for, where --parallel was capped (options.cpp).
void log_threads(const SortContext& ctx) {
  const SortConfig& config = ctx.config;
  if (config.threads_requested > config.threads) {
    ctx.log.info("threads: --parallel " + std::to_string(config.threads_requested) + " capped at " +
                 std::to_string(config.threads) + " (4 per hardware thread)");
  }
}

// --page-cache drop (the default): a spilled sort whose runs and output
// outgrow what the page cache takes at memory speed hands them to the disk
// as they are written and drops them once written (io/file/writeback_pacer.h),
// rather than let the kernel's dirty limit stall the writers for seconds at
// a time (docs/benchmarks.md).
bool pace_writeback(const SortContext& ctx, const MemoryPlan& plan, const InputSet& inputs) {
  uint64_t room = 0;
  if (plan.in_memory || !inputs.size_known() || !outgrows_page_cache(ctx.config, inputs.total_bytes(), &room)) {
    return false;
  }
  ctx.log.info("writes paced: the runs and the output (" + std::to_string(inputs.total_bytes()) +
               " bytes) exceed what the page cache takes at memory speed (" + std::to_string(room) +
               " bytes); each is written around the cache (O_DIRECT) where the file system allows, else handed to "
               "the disk as it is written and dropped from the cache once written");
  return true;
}

}  // namespace

SortPlan plan_sort(const SortContext& ctx, const InputSet& inputs, bool output_set_aside) {
  const SortConfig& config = ctx.config;
  const uint32_t rs = ctx.layout.record_size();
  const uint64_t backend_bytes = ctx.backend.host_bytes_per_record();
  log_threads(ctx);
  SortPlan plan;
  plan.budget = budget_to_use(ctx);
  const unsigned streams = config.spill_streams != 0 ? config.spill_streams : kDefaultSpillStreams;
  plan.memory = plan_memory(plan.budget, rs, backend_bytes, inputs.size_known(), inputs.total_bytes() / rs, streams);
  plan.windows = merge_windows(plan.memory, plan.budget, rs, backend_bytes);
  std::string limits_line;
  // A sort also holds the input it reads while runs wait and merge; a
  // merge whose output is set aside has its descriptor for the lock.
  const bool merging = config.mode == Mode::kMerge;
  const size_t to_open = merging ? (output_set_aside ? 0 : 1) : 2;
  plan.limits = merge_limits(plan.memory.fan_in, config.batch_size, merging, free_descriptors(to_open), &limits_line);
  // Each segment of a waiting run holds a descriptor: a run takes at most a
  // quarter of those the runs may hold.
  plan.memory.spill_streams = static_cast<unsigned>(
      std::clamp<uint64_t>(plan.limits.max_open_runs / 4, 1, plan.memory.spill_streams));
  if (!plan.memory.in_memory && plan.memory.spill_streams != streams) {
    ctx.log.info("spill streams: " + std::to_string(plan.memory.spill_streams) + " instead of " +
                 std::to_string(streams) + " (each needs a write buffer of at least " +
                 std::to_string(kMinStreamBlockBytes) + " bytes, and a descriptor while its run waits)");
  }
  if (inputs.size_known()) {
    ctx.log.info("input: " + std::to_string(inputs.total_bytes()) + " bytes, " +
                 plural(inputs.total_bytes() / rs, "record"));
  }
  ctx.log.info("memory: " + std::to_string(plan.budget) + " bytes budget, chunks of " +
               plural(plan.memory.chunk_records, "record"));
  ctx.log.info(limits_line);
  plan.writeback_paced = pace_writeback(ctx, plan.memory, inputs);
  return plan;
}

}  // namespace gsort
