#include "src/pipeline/commit_output.h"

#include <optional>

#include "io/output/output_parts.h"
#include "src/core/stopwatch.h"

namespace gsort {

void close_output_mapping(MappedDestination& mapped, uint64_t bytes, bool fsync, ThreadPool& pool,
                          SortReport& report) {
  const bool was_mapped = mapped.mapped();
  const Stopwatch unmap;
  mapped.finish(bytes, fsync, &pool);
  if (was_mapped) report.add_phase("unmap output", unmap.seconds());
}

void commit_output(const CommitSteps& steps, SortReport& report) {
  const Stopwatch commit_time;
  report.output_stored_bytes = report.output_bytes;
  if (steps.encoder) {
    steps.encoder->finish();
    report.output_stored_bytes = steps.encoder->bytes_out();
  }
  steps.meter.stop();
  steps.target.prepare_commit(steps.fsync);
  if (steps.before_commit) steps.before_commit();
  std::optional<StaleParts> stale;
  if (!steps.parts_directory.empty()) stale.emplace(steps.parts_directory, 1);
  steps.target.publish();
  if (stale) stale->commit();
  report.add_phase("commit", commit_time.seconds());
}

}  // namespace gsort
