#include "src/pipeline/form_runs.h"

#include <memory>

#include "src/core/stopwatch.h"
#include "src/pipeline/chunk_reader.h"
#include "src/pipeline/run_output.h"

namespace gsort {
namespace {

// Writes records[order[..]] to a new run file.
void spill_run(SortJob& job, const uint8_t* records, const uint32_t* order, uint64_t count,
               std::vector<PendingSource>& runs) {
  const Stopwatch t;
  PendingSource run;
  RunOutput out(job, "run", run);
  out.records().append_gathered(job.ctx.pool, records, order, count);
  out.finish();
  ++job.report.runs;
  runs.push_back(std::move(run));
  job.report.add_phase("write runs", t.seconds());
}

}  // namespace

std::vector<PendingSource> form_runs(SortJob& job, InputSet& inputs, OutputTarget& output) {
  std::vector<PendingSource> runs;
  SortReport& report = job.report;
  const uint64_t chunk = job.plan.chunk_records;
  ChunkReader chunks(inputs, job.ctx.backend, chunk, job.rs);
  std::unique_ptr<uint32_t[]> order(new uint32_t[chunk]);
  job.meter->phase("forming runs", job.stored_total, &job.tally->stored_bytes);
  chunks.read_first();
  do {
    report.input_records += chunks.count();
    chunks.read_ahead();
    const Stopwatch t;
    job.ctx.backend.sort_order(chunks.records(), chunks.count(), order.get());
    report.add_phase("sort", t.seconds());
    if (runs.empty() && chunks.next_count() == 0) {  // the only chunk: no temp files needed
      report.in_memory = true;
      job.write_sorted_output(chunks.records(), order.get(), chunks.count(), output);
      break;
    }
    spill_run(job, chunks.records(), order.get(), chunks.count(), runs);
  } while (chunks.advance());
  report.input_bytes = report.input_records * job.rs;
  for (const PhaseSpan& span : chunks.read_spans()) report.add_span(span);
  if (!runs.empty()) job.ctx.log.info("formed " + plural(runs.size(), "run") + " of up to " + plural(chunk, "record"));
  return runs;
}

}  // namespace gsort
