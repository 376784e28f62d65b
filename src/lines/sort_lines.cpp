#include "src/lines/sort_lines.h"

#include <algorithm>
#include <deque>

#include "io/codec/output_encoder.h"
#include "io/input/line_chunk_reader.h"
#include "io/input/line_sample.h"
#include "io/temp/stale_temp_dirs.h"
#include "src/chunk_sort/lines/sorter.h"
#include "src/lines/debug/annotator.h"
#include "src/lines/job.h"
#include "src/merge/merge_limits.h"
#include "src/pipeline/output_mapping.h"
#include "src/pipeline/room_check.h"
#include "src/pipeline/temp_compression.h"
#include "src/verify/line_check.h"

namespace gsort {

namespace {

// --debug's annotator, or --compress-output's encoder, or none.
SortDestination::EncoderMaker line_encoder(const SortConfig& config, ThreadPool& pool) {
  if (config.lines.debug) {
    return [&config](File& file) -> std::unique_ptr<OutputEncoder> {
      return std::make_unique<DebugAnnotator>(make_line_spec(config.lines, config.reverse, config.unique), file);
    };
  }
  return SortDestination::compressed_output(config, pool);
}

}  // namespace

LineDestination::LineDestination(const SortConfig& config, const RunOptions& run, ThreadPool& pool,
                                 uint64_t block_bytes)
    : SortDestination(run.output, run.output_shown_as, output_staging_bytes(config, 1), config.temp_dir,
                      line_encoder(config, pool)),
      blocks(sink(), block_bytes) {}

LineJob::LineJob(const SortConfig& c, ThreadPool& p, const Log& l)
    : config(c),
      pool(p),
      log(l),
      spec(make_line_spec(c.lines, c.reverse, c.unique)),
      compare(spec),
      plan(plan_lines(c.memory_bytes, 0, 0, c.inputs.size(), c.batch_size, free_descriptors(2), c.spill_streams)),
      runs(c.temp_dir, l, 1, c.compress_program, c.threads),
      device_budget(std::make_shared<DeviceBudget>(c.gpu_memory)) {}

std::unique_ptr<LineWriter> LineJob::destination_writer(uint64_t bytes) {
  auto w = std::make_unique<LineWriter>(out->blocks.blocks(bytes), spec.eol, unique_by());
  w->count_bytes(&out->blocks.written_bytes());
  w->verify_with(verify.get());
  return w;
}

std::unique_ptr<LineRunOutput> LineJob::run_output(PendingSource& run, unsigned streams) {
  return std::make_unique<LineRunOutput>(runs, run, streams, spec.eol, unique_by(), verify.get());
}

void LineJob::count_run(const LineRunFigures& figures) {
  report.temp_bytes += figures.file_bytes;
  report.temp_record_bytes += figures.bytes;
}

std::unique_ptr<LineWindow> LineJob::window(PendingSource& source, uint64_t sources) {
  std::unique_ptr<LineWindow> w = window(source.is_input() ? source.open_input() : runs.open(source), sources);
  if (source.is_input()) w->count_into(verify.get());
  return w;
}

std::unique_ptr<LineWindow> LineJob::window(std::unique_ptr<RecordSource> from, uint64_t sources) {
  // No larger than the source, where its size is known (a terminator may
  // be added): many small inputs of -m are merged in many small merges.
  uint64_t bytes = plan.window_bytes(sources);
  if (from->size_hint() > 0) bytes = std::min(bytes, from->size_hint() + 1);
  const uint64_t lines = std::min(plan.window_lines(sources), bytes);
  return std::make_unique<LineWindow>(std::move(from), spec.eol, bytes, lines, plan.max_line);
}

void count_line_runs(LineJob& job, uint64_t bytes) {
  const SortConfig& config = job.config;
  if (bytes == 0 || config.compress_temp == TempCompression::kOn) return;  // spares the sample's reads
  const RunsRoom runs =
      line_runs_room(job.plan, bytes, config.inputs.size(), sampled_line_length(config.inputs, job.spec.eol));
  job.out->room->count_runs_as_written(runs, config.compress_temp, true, job.runs);
}

namespace {

// -m: the inputs, each a source of sorted lines.
void merge_inputs(LineJob& job) {
  auto set = std::make_shared<InputSet>(job.config.inputs, 1, &job.tally, false);
  std::vector<PendingSource> sources = input_sources(set->lazy_sources(), set);
  bool known = false;
  const uint64_t bytes = plain_input_bytes(job.config.inputs, &known);
  // A terminator may be added to each input's last line.
  merge_line_inputs(job, std::move(sources), known ? bytes + job.config.inputs.size() : 0);
  job.report.input_records = job.report.output_records;
}

// The output's mapping closed, --verify's verdict, then the commit
// (src/pipeline/sort_destination.h).
void commit(LineJob& job, const RunOptions& run, const LinesBeforeCommit& before_commit) {
  LineDestination& out = *job.out;
  job.report.input_stored_bytes = job.tally.stored_bytes.load();
  out.close(job.report.output_bytes, out.blocks.way(), job.config.fsync, job.pool, job.log, job.report);
  SortDestination::Verdict verdict;
  if (job.verify) {
    verdict = [&job] {
      job.verify->finish();
      return job.verify->input_hash_sum();
    };
  }
  SortDestination::verify(verdict, "line", *job.meter, job.log, job.report);
  std::function<void()> hook;
  if (before_commit) hook = [&job, &before_commit] { before_commit(job.report, job.sorter); };
  out.commit(*job.meter, job.config.fsync, run.parts_directory, hook, job.report);
}

// The destination, mapped where it may be: the inputs' size bounds the
// output (a terminator added to each input's last line at most). Where
// that size is known, its file system is checked for room first (unless
// --no-space-check); the runs are counted once the plan knows them
// (count_line_runs).
void open_destination(LineJob& job, const RunOptions& run) {
  const SortConfig& config = job.config;
  job.out = std::make_unique<LineDestination>(config, run, job.pool, job.plan.block_bytes);
  bool known = false;
  const uint64_t input_bytes = plain_input_bytes(config.inputs, &known);
  LineDestination& out = *job.out;
  const uint64_t bound = input_bytes + config.inputs.size();
  out.plan_room(config, known ? input_bytes : 0, known ? bound : 0, false);
  if (!out.refusal.empty()) return;
  // One chunk: its output's pages made present while it is read and sorted
  // (not under -u, whose output may be a small part of the input).
  if (known && input_bytes > 0 && config.mode == Mode::kSort && !config.unique && bound + 2 <= job.plan.budget / 2 &&
      out.room->may_map()) {
    out.mapped.prepare(bound, job.pool);
  }
  allow_mapped_blocks(out.blocks, out.mapped, *out.room);
}

}  // namespace

void write_output_past_the_cache(LineJob& job, uint64_t bytes) {
  LineDestination& out = *job.out;
  if (!outgrows_page_cache(job.config, bytes) || !out.write_around_the_cache(job.plan.budget, job.log)) return;
  // The blocks were allowed the mapping before the chunks were planned.
  out.blocks.allow_mapping(nullptr);
  out.blocks.allow_whole_mapping(nullptr);
}

namespace {

// The chunks read, sorted and spilled as runs (or written, where one
// chunk holds the input): the reader and the sorter made and the chunks
// planned; then, where the sort spills, where its runs go (the GPU's memory,
// held_runs.h, or the temporary directory, whose room is counted) and
// whether the output is written around the page cache. The sorter and the
// reader go before the merge, which takes their memory.
std::deque<PendingSource> form_line_runs(LineJob& job) {
  const SortConfig& config = job.config;
  LineReader reader(config.inputs, job.spec.eol, job.plan.max_line, job.pool, &job.tally,
                    config.page_cache == PageCacheUse::kDrop);
  std::unique_ptr<LineSorter> sorter = make_line_sorter(config, job.spec, job.pool, job.log, job.device_budget);
  plan_line_chunks(job, reader, *sorter);
  if (job.plan.double_buffered) {
    hold_line_runs(job, reader.known_bytes());
    count_line_runs(job, reader.known_bytes());
    write_output_past_the_cache(job, reader.known_bytes());
  }
  return sort_line_chunks(job, reader, *sorter);
}

}  // namespace

LineSortOutcome sort_lines(const SortConfig& config, const RunOptions& run, ThreadPool& pool, const Log& log,
                           const LinesBeforeCommit& before_commit) {
  LineJob job(config, pool, log);
  LineSortOutcome outcome;
  ProgressMeter meter(ProgressMeter::wanted(config));
  job.meter = &meter;
  if (config.mode == Mode::kCheck) {
    meter.phase("checking", 0, nullptr);
    outcome.check = check_sorted_lines(config.inputs.front(), job.compare, job.plan.max_line, nullptr);
    return outcome;
  }
  remove_stale_temp_dirs(config.temp_dir);
  if (config.verify) job.verify = std::make_unique<LineVerify>(job.spec);
  open_destination(job, run);
  if (config.mode == Mode::kMerge) {
    job.sorter = "merge";
    merge_inputs(job);
  } else {
    std::deque<PendingSource> runs = form_line_runs(job);
    if (!runs.empty() || (job.held && job.held->runs() > 0)) {
      merge_line_sources(job, std::vector<PendingSource>(std::make_move_iterator(runs.begin()),
                                                         std::make_move_iterator(runs.end())),
                         job.report.input_bytes, line_merge_limits(job.plan));
    }
  }
  if (job.out->mapped.populating_ahead()) {
    job.log.info("output: the writers waited " + seconds_text(job.out->mapped.populate_waited_s()) +
                 " for its pages to be made present");
  }
  commit(job, run, before_commit);
  outcome.report = job.report;
  outcome.sorter = job.sorter;
  return outcome;
}

}  // namespace gsort
