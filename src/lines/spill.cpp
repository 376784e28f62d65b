// Reading the inputs chunk by chunk and sorting each: written straight to
// the destination when the whole input is one chunk (while it is sorted),
// else spilled as runs on a thread of their own while the next chunk is
// read and sorted (as the record sort's src/pipeline/background_spill.h).
#include <algorithm>
#include <future>

#include "io/input/line_chunk_reader.h"
#include "io/output/write_behind.h"
#include "src/algo/line_index.h"
#include "src/chunk_sort/lines/sorter.h"
#include "src/core/host_buffer.h"
#include "src/core/log.h"
#include "src/core/process_clock.h"
#include "src/core/stopwatch.h"
#include "src/lines/job.h"
#include "src/lines/sort_arriving.h"
#include "src/merge/merge_limits.h"
#include "src/pipeline/direct_write.h"
#include "src/pipeline/spill_thread.h"
#include "src/pipeline/temp_compression.h"

namespace gsort {
namespace {

// A chunk's text, its line starts and its order, in the sorter's host
// memory (pinned for the GPU); the starts and the order grow to the lines
// a chunk holds, up to the plan's count.
struct ChunkBuffers {
  HostBuffer text;
  LineIndexBuffers index;
  const uint8_t* mapped_text = nullptr;  // the input mapped instead of read into `text`
  const uint8_t* chars() const { return mapped_text ? mapped_text : text.data(); }
  // Where the next chunk is read.
  uint8_t* read_into() {
    mapped_text = nullptr;
    return text.data();
  }
  uint64_t* start() const { return index.start(); }
  uint32_t* sorted() const { return index.sorted(); }
  uint64_t* room_for(uint64_t n, LineSorter& sorter) {
    return index.room_for(n, [&sorter](size_t bytes) { return sorter.allocate_host(bytes); });
  }
};

ChunkBuffers allocate_chunk(const LinePlan& plan, LineSorter& sorter) {
  ChunkBuffers b;
  b.text = sorter.allocate_host(plan.chunk_bytes);
  return b;
}

// Indexes the chunk just read; lines past the plan's count go back to the reader.
LineSpan index_chunk(LineJob& job, LineReader& reader, ChunkBuffers& b, LineSorter& sorter, uint64_t bytes) {
  const IndexResult ix = index_lines(job.pool, b.chars(), bytes, job.spec.eol, job.plan.chunk_lines,
                                     [&b, &sorter](uint64_t n) { return b.room_for(n, sorter); });
  if (ix.longest > job.plan.max_line) {
    uint64_t i = 0;
    while (b.start()[i + 1] - b.start()[i] != ix.longest) ++i;
    reader.too_long(reader.source_of(b.start()[i]));
  }
  if (ix.bytes < bytes) reader.unread(b.chars(), ix.bytes, bytes);
  job.report.input_records += ix.lines;
  job.report.input_bytes += ix.bytes;
  const LineSpan span{b.chars(), b.start(), ix.lines};
  if (job.verify) job.verify->input(span.count, hash_lines(job.pool, span));
  return span;
}

// A sorted chunk written as a run on a thread of its own
// (src/pipeline/spill_thread.h); the chunk's text and order must stay
// untouched until finish() returns. One at a time.
class LineSpill {
 public:
  explicit LineSpill(LineJob& job) : job_(job) {}
  bool busy() const { return thread_.busy(); }

  // `held`: into job.held; else into the temporary directory.
  void start(const LineSpan& span, const uint32_t* order, bool held) {
    holding_ = held;
    if (held) {
      start_held(span, order);
      return;
    }
    run_ = PendingSource();
    const unsigned streams = static_cast<unsigned>(std::clamp<uint64_t>(span.count, 1, job_.plan.spill_streams));
    out_ = job_.run_output(run_, streams);  // the files are made here, on this thread
    LineRunOutput* out = out_.get();
    ThreadPool& pool = job_.pool;
    thread_.launch([out, &pool, span, order] { out->append_sorted(pool, span, order, span.count); },
                   [out] { return out->finish(); });
  }

  // Whether the run in flight goes to job.held.
  bool holding() const { return holding_; }

  // Waits for the run; its figures and span go to the report. A run the
  // job holds (job.held) is no file: the source returned is empty.
  PendingSource finish() {
    const LineRunFigures figures = thread_.finish(job_.report);
    out_.reset();
    if (!holding_) job_.count_run(figures);
    ++job_.report.runs;
    return std::move(run_);
  }

 private:
  // The run copied into job.held through a writer of the plan's blocks.
  void start_held(const LineSpan& span, const uint32_t* order) {
    HeldRuns* held = job_.held.get();
    ThreadPool& pool = job_.pool;
    WriteBehind::Sink sink = [held](const uint8_t* data, size_t bytes) { held->append(data, bytes); };
    const uint64_t block = job_.plan.block_bytes;
    const std::vector<uint8_t*> blocks = held->write_blocks(block, kWriteBehindBuffers);
    auto target = blocks.empty() ? std::make_unique<WriteBehind>(std::move(sink), block)
                                 : std::make_unique<WriteBehind>(std::move(sink), block, blocks);
    auto writer = std::make_shared<LineWriter>(std::move(target), job_.spec.eol, job_.unique_by());
    writer->verify_with(job_.verify.get(), false);
    thread_.launch([writer, &pool, span, order] { writer->append_sorted(pool, span, order, span.count); },
                   [writer, held] {
                     writer->finish();
                     held->end_run();
                     return LineRunFigures{writer->lines_written(), writer->bytes_written(), 0};
                   });
  }

  LineJob& job_;
  PendingSource run_;
  std::unique_ptr<LineRunOutput> out_;
  bool holding_ = false;
  SpillThread<LineRunFigures> thread_;  // last: a spill in flight ends before the rest goes
};

// --compress-temp, settled before the first run from a sample of the first
// sorted chunk as its run will hold it.
void settle_compression(LineJob& job, const LineSpan& span, const uint32_t* order) {
  SampleFrames sample;
  sample.bytes = span.bytes();
  sample.frame = [&span, order](size_t f, size_t frames, uint64_t frame_bytes) {
    std::vector<uint8_t> raw;
    for (uint64_t i = split_point(span.count, frames, f); i < span.count && raw.size() < frame_bytes; ++i) {
      raw.insert(raw.end(), span.line(order[i]), span.line(order[i]) + span.length(order[i]) + 1);
    }
    return raw;
  };
  const TempSettings settings{job.config, job.pool, job.log, job.plan.window_bytes(job.plan.fan_in)};
  decide_run_compression(settings, sample, job.runs, job.report.temp);
}

// The whole input in one chunk: written while it is sorted, each final
// part of the order as soon as the sorter hands it over; or, where the
// sorter holds the chunk's text (the GPU that filled its entries) and the
// lines go out as they are, gathered by the sorter once sorted.
void sort_in_memory(LineJob& job, LineSorter& sorter, const LineSpan& span, uint32_t* order) {
  job.report.in_memory = true;
  std::unique_ptr<LineWriter> out = job.destination_writer(span.bytes());
  job.meter->phase("sorting", 0, nullptr);
  std::optional<bool> by_sorter;  // decided as the first part is handed over
  const SortWriteSpans spans = sort_while_writing(
      span.count, [&](const std::function<void(uint64_t)>& ready) { sorter.sort_in_parts(span, order, ready); },
      [&] { job.meter->phase("writing", span.bytes(), &job.out->blocks.written_bytes()); },
      [&](uint64_t from, uint64_t to) {
        if (!by_sorter) by_sorter = out->copies_as_is() && sorter.holds_text(span);
        if (!*by_sorter) out->append_sorted(job.pool, span, order + from, to - from);
      });
  if (by_sorter.value_or(false) &&
      !sorter.write_sorted(span, order, [&](const uint8_t* text, uint64_t bytes, bool last) {
        out->append_text(job.pool, text, bytes, last ? span.count : 0);
      })) {
    out->append_sorted(job.pool, span, order, span.count);
  }
  out->finish();
  job.report.output_records += out->lines_written();
  job.report.output_bytes += out->bytes_written();
  job.report.add_span(spans.sort);
  if (span.count > 0) job.report.add_span(PhaseSpan{"gather+write", "main", spans.write_start, process_seconds()});
}

}  // namespace

void plan_line_chunks(LineJob& job, const LineReader& reader, const LineSorter& sorter) {
  const SortConfig& config = job.config;
  job.plan = plan_lines(config.memory_bytes, sorter.bytes_per_line(), reader.known_bytes(), config.inputs.size(),
                        config.batch_size, free_descriptors(2), config.spill_streams);
  job.sorter = sorter.describe();
  if (job.plan.budget > config.memory_bytes) {
    job.log.info("memory: -S " + std::to_string(config.memory_bytes) + " bytes raised to the least a line sort takes, " +
                 std::to_string(job.plan.budget) + " bytes");
  }
  job.report.memory_budget = job.plan.budget;
  job.report.chunk_records = job.plan.chunk_lines;
  job.report.temp.streams = job.plan.spill_streams;
  job.report.temp.expected_bytes = reader.known_bytes();
  job.runs.plan_writes(job.plan.block_bytes, false);
  job.log.info("lines: sorter " + sorter.describe() + ", chunks of " + std::to_string(job.plan.chunk_bytes) +
               " bytes or " + std::to_string(job.plan.chunk_lines) + " lines" +
               (job.plan.double_buffered ? " (two: one read and sorted while the other is spilled)" : "") +
               ", lines up to " + std::to_string(job.plan.max_line) + " bytes");
}

namespace {

void say_sort_steps(const LineJob& job, const LineSorter& sorter) {
  const std::string steps = sorter.steps();
  if (!steps.empty()) job.log.info("lines: sort steps: " + steps);
}

// How much the next chunk reads: no more lines than a chunk holds, at the
// mean length so far, so that few are read only to be put back (copied
// twice) for the chunk after.
uint64_t next_read(const LineJob& job) {
  const LinePlan& plan = job.plan;
  const uint64_t lines = job.report.input_records;
  if (lines == 0) return plan.chunk_bytes;
  const uint64_t mean = std::max<uint64_t>(1, job.report.input_bytes / lines);
  const uint64_t fits = plan.chunk_lines / 16 * 15 * mean;
  return std::clamp<uint64_t>(fits, plan.max_line + 2, plan.chunk_bytes);
}

// The run just spilled joins those waiting; too many (each holds its
// segments' descriptors) are merged early, until fewer wait than the plan's
// waiting_files.
void add_run(LineJob& job, std::deque<PendingSource>& runs, PendingSource run) {
  runs.push_back(std::move(run));
  for (;;) {
    size_t open = 0;
    for (const PendingSource& r : runs) open += r.open_files();
    if (open < job.plan.waiting_files || runs.size() < 2) return;
    merge_last_runs(job, runs);
  }
}

// The run in flight, finished: into the waiting runs, or held (job.held).
void take_run(LineJob& job, std::deque<PendingSource>& runs, LineSpill& spill) {
  const bool held = spill.holding();
  PendingSource run = spill.finish();
  if (!held) add_run(job, runs, std::move(run));
}

// A stream's destination made ready as its first chunk arrives, in case
// that chunk holds it whole (not under -u, whose output may be a small
// part); its pieces sorted as they come, where they are (sort_arriving.h).
void watch_first_chunk(LineJob& job, LineReader& reader, ArrivingLinePieces* pieces) {
  LineDestination& out = *job.out;
  const bool growing = reader.known_bytes() == 0 && !job.config.unique && out.refusal.empty() && !out.encoder &&
                       out.room->may_map() && out.mapped.prepare_growing(job.plan.chunk_bytes, job.pool);
  MappedDestination* grows = growing ? &out.mapped : nullptr;
  if (!grows && !pieces) return;
  reader.watch_arrivals([grows, pieces](uint64_t bytes) {
    if (pieces) pieces->arrived(bytes);
    if (grows) grows->grow(bytes);
  });
}

}  // namespace

std::deque<PendingSource> sort_line_chunks(LineJob& job, LineReader& reader, LineSorter& sorter) {
  sorter.prepare(reader.known_bytes());
  ChunkBuffers buffers[2] = {allocate_chunk(job.plan, sorter), ChunkBuffers()};
  if (job.plan.double_buffered) buffers[1] = allocate_chunk(job.plan, sorter);
  std::deque<PendingSource> runs;
  LineSpill spill(job);  // after the buffers: a spill in flight ends before they go
  Stopwatch t;
  job.meter->phase("reading", reader.known_bytes(), &job.tally.stored_bytes);
  uint64_t bytes = 0;
  // One chunk of one file in the page cache: its mapping is the chunk.
  if (!job.plan.double_buffered && sorter.reads_any_memory()) {
    const Stopwatch mapping;
    buffers[0].mapped_text = reader.map_whole(job.plan.chunk_bytes, job.out->target.file().fd(), &bytes);
    if (buffers[0].mapped_text) {
      job.log.info("lines: the input is mapped, not read (its pages in the page cache; mapped in " +
                   seconds_text(mapping.seconds()) + ")");
    }
  }
  if (!buffers[0].mapped_text) {
    std::unique_ptr<ArrivingLinePieces> pieces =
        sort_while_arriving(job, reader, sorter, buffers[0].text.data(), buffers[1].text.data());
    watch_first_chunk(job, reader, pieces.get());
    bytes = reader.read_chunk(buffers[0].read_into(), job.plan.chunk_bytes);
    reader.watch_arrivals(nullptr);
    if (pieces) {
      job.report.add_phase("read", t.lap());
      if (take_arriving_pieces(job, reader, *pieces, bytes, buffers[1].text)) {
        say_sort_steps(job, sorter);
        return runs;
      }
    }
  }
  for (int cur = 0; bytes != 0; cur = job.plan.double_buffered ? 1 - cur : cur) {
    ChunkBuffers& b = buffers[cur];
    const LineSpan span = index_chunk(job, reader, b, sorter, bytes);
    job.report.add_phase("read", t.lap());
    const bool last = reader.done();
    if (last && runs.empty() && !spill.busy() && (!job.held || job.held->runs() == 0)) {
      sort_in_memory(job, sorter, span, b.sorted());
      reader.check_mapped_unchanged();  // the output was gathered from it
      say_sort_steps(job, sorter);
      return runs;
    }
    job.out->mapped.abandon_growth();
    job.meter->phase("sorting", 0, nullptr);
    sorter.sort(span, b.sorted());
    job.report.add_phase("sort", t.lap());
    // The run before this one: the other buffer is free once it is written.
    if (spill.busy()) take_run(job, runs, spill);
    const bool held = take_held_runs(job);
    if (!held) settle_compression(job, span, b.sorted());
    job.meter->phase("spilling", 0, nullptr);
    spill.start(span, b.sorted(), held);
    if (last) break;
    if (!job.plan.double_buffered) take_run(job, runs, spill);
    bytes = reader.read_chunk(buffers[job.plan.double_buffered ? 1 - cur : cur].read_into(), next_read(job));
    t.lap();
  }
  if (spill.busy()) take_run(job, runs, spill);
  reader.check_mapped_unchanged();  // its runs were copied from it
  if (job.held_start.valid()) job.log.info("lines: the GPU's memory was not ready before the last run");
  say_sort_steps(job, sorter);
  return runs;
}

}  // namespace gsort
