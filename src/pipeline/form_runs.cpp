#include "src/pipeline/form_runs.h"

#include <memory>

#include "src/core/stopwatch.h"
#include "src/pipeline/chunk_reader.h"
#include "src/pipeline/run_output.h"
#include "src/pipeline/run_stack.h"

namespace gsort {
namespace {

// Writes records[order[..]] to a new run file.
PendingSource spill_run(SortJob& job, const uint8_t* records, const uint32_t* order, uint64_t count) {
  const Stopwatch t;
  PendingSource run;
  RunOutput out(job, "run", run);
  out.records().append_gathered(job.ctx.pool, records, order, count);
  out.finish();
  ++job.report.runs;
  job.report.add_phase("write runs", t.seconds());
  return run;
}

}  // namespace

std::vector<PendingSource> form_runs(SortJob& job, InputSet& inputs, OutputTarget& output) {
  RunStack runs(job);
  SortReport& report = job.report;
  const uint64_t chunk = job.plan.chunk_records;
  ChunkReader chunks(inputs, job.ctx.backend, chunk, job.rs);
  std::unique_ptr<uint32_t[]> order(new uint32_t[chunk]);
  job.meter->phase("forming runs", job.stored_total, &job.tally->stored_bytes);
  chunks.read_first();
  bool more = true;
  while (more) {
    report.input_records += chunks.count();
    // A spill that makes the runs merge early: no read-ahead, so that both
    // chunk buffers (and the order) are free while the merge runs, and it
    // has the whole budget.
    const bool merges_next = runs.push_would_merge(true);
    if (!merges_next) chunks.read_ahead();
    const Stopwatch t;
    job.ctx.backend.sort_order(chunks.records(), chunks.count(), order.get());
    report.add_phase("sort", t.seconds());
    if (runs.empty() && !merges_next && chunks.next_count() == 0) {  // the only chunk: no temp files needed
      report.in_memory = true;
      job.write_sorted_output(chunks.records(), order.get(), chunks.count(), output);
      break;
    }
    PendingSource run = spill_run(job, chunks.records(), order.get(), chunks.count());
    if (merges_next) {
      chunks.release();
      order.reset();
      runs.push(std::move(run));
      order.reset(new uint32_t[chunk]);
      more = chunks.read_after_release();
    } else {
      runs.push(std::move(run));
      more = chunks.advance();
    }
  }
  report.input_bytes = report.input_records * job.rs;
  for (const PhaseSpan& span : chunks.read_spans()) report.add_span(span);
  if (report.runs > 0) {
    job.ctx.log.info("formed " + plural(report.runs, "run") + " of up to " + plural(chunk, "record"));
  }
  return runs.take();
}

}  // namespace gsort
