#include "src/lines/form_runs.h"

#include <algorithm>
#include <cstdio>
#include <future>

#include "io/output/write_behind.h"
#include "src/algo/line_index.h"
#include "src/core/host_buffer.h"
#include "src/core/log.h"
#include "src/core/process_clock.h"
#include "src/core/stopwatch.h"
#include "src/keys/collation.h"
#include "src/lines/sort_arriving.h"
#include "src/merge/merge_limits.h"
#include "src/merge/run_stack.h"
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
LineSpan index_chunk(const LineRunFormation& f, ChunkBuffers& b, uint64_t bytes, SortReport& report) {
  LineReader& reader = f.reader;
  LineSorter& sorter = f.sorter;
  const IndexResult ix = index_lines(f.ctx.pool, b.chars(), bytes, f.ctx.eol(), f.plan.chunk_lines,
                                     [&b, &sorter](uint64_t n) { return b.room_for(n, sorter); });
  if (b.mapped_text) {  // the whole input, mapped: the read phase is this and the mapping
    char text[200];
    std::snprintf(text, sizeof text, "lines: %llu lines indexed (terminators counted in %.3f s, starts written in %.3f s)",
                  static_cast<unsigned long long>(ix.lines), ix.counted_s, ix.written_s);
    f.ctx.log.info(text);
  }
  if (ix.longest > f.plan.max_line) {
    uint64_t i = 0;
    while (b.start()[i + 1] - b.start()[i] != ix.longest) ++i;
    reader.too_long(reader.source_of(b.start()[i]));
  }
  if (ix.bytes < bytes) reader.unread(b.chars(), ix.bytes, bytes);
  report.input_records += ix.lines;
  report.input_bytes += ix.bytes;
  const LineSpan span{b.chars(), b.start(), ix.lines};
  if (f.verify) f.verify->input(span.count, hash_lines(f.ctx.pool, span));
  return span;
}

// A sorted chunk written as a run on a thread of its own
// (src/pipeline/spill_thread.h); the chunk's text and order must stay
// untouched until finish() returns. One at a time.
class LineSpill {
 public:
  LineSpill(const LineRunFormation& f, SortReport& report) : f_(f), report_(report) {}
  bool busy() const { return thread_.busy(); }

  // `held`: into the held runs' store; else into the temporary directory.
  void start(const LineSpan& span, const uint32_t* order, bool held) {
    holding_ = held;
    if (held) {
      start_held(span, order);
      return;
    }
    run_ = PendingSource();
    const unsigned streams = static_cast<unsigned>(std::clamp<uint64_t>(span.count, 1, f_.plan.spill_streams));
    out_ = f_.merges.run_output(run_, streams);  // the files are made here, on this thread
    LineRunOutput* out = out_.get();
    ThreadPool& pool = f_.ctx.pool;
    thread_.launch([out, &pool, span, order] { out->append_sorted(pool, span, order, span.count); },
                   [out] { return out->finish(); });
  }

  // Whether the run in flight goes to the held runs' store.
  bool holding() const { return holding_; }

  // Waits for the run; its figures and span go to the report. A held run
  // is no file: the source returned is empty.
  PendingSource finish() {
    const LineRunFigures figures = thread_.finish(report_);
    out_.reset();
    if (!holding_) f_.merges.count_run(figures);
    ++report_.runs;
    return std::move(run_);
  }

 private:
  // The run gathered by the held runs' store where it lies (the GPU's
  // memory), else copied in through a writer of the plan's blocks, on the
  // run's thread. -u drops lines by comparing them and --verify hashes
  // them: the writer does both.
  void start_held(const LineSpan& span, const uint32_t* order) {
    HeldRuns* held = f_.held.store();
    ThreadPool& pool = f_.ctx.pool;
    const bool by_store = f_.ctx.unique_by() == nullptr && f_.verify == nullptr;
    auto writer = std::make_shared<std::unique_ptr<LineWriter>>();
    thread_.launch(
        [this, writer, held, by_store, &pool, span, order] {
          if (by_store && held->gather_lines(span, order)) return;
          *writer = held_writer(*held);
          (*writer)->append_sorted(pool, span, order, span.count);
        },
        [writer, held, span] {
          LineRunFigures figures{span.count, span.bytes(), 0};
          if (*writer) {
            (*writer)->finish();
            figures = LineRunFigures{(*writer)->lines_written(), (*writer)->bytes_written(), 0};
          }
          held->end_run();
          return figures;
        });
  }

  // A writer into the held runs' store through its blocks (pinned, where
  // it is the device's) of the plan's size.
  std::unique_ptr<LineWriter> held_writer(HeldRuns& held) const {
    WriteBehind::Sink sink = [&held](const uint8_t* data, size_t bytes) { held.append(data, bytes); };
    const uint64_t block = f_.plan.held_block_bytes;
    const std::vector<uint8_t*> blocks = held.write_blocks(block, kWriteBehindBuffers);
    auto target = blocks.empty() ? std::make_unique<WriteBehind>(std::move(sink), block)
                                 : std::make_unique<WriteBehind>(std::move(sink), block, blocks);
    auto writer = std::make_unique<LineWriter>(std::move(target), f_.ctx.eol(), f_.ctx.unique_by());
    writer->verify_with(f_.verify, false);
    return writer;
  }

  const LineRunFormation& f_;
  SortReport& report_;
  PendingSource run_;
  std::unique_ptr<LineRunOutput> out_;
  bool holding_ = false;
  SpillThread<LineRunFigures> thread_;  // last: a spill in flight ends before the rest goes
};

// --compress-temp, settled before the first run from a sample of the first
// sorted chunk as its run will hold it.
void settle_compression(const LineRunFormation& f, const LineSpan& span, const uint32_t* order, SortReport& report) {
  SampleFrames sample;
  sample.bytes = span.bytes();
  sample.frame = [&span, order](size_t frame, size_t frames, uint64_t frame_bytes) {
    std::vector<uint8_t> raw;
    for (uint64_t i = split_point(span.count, frames, frame); i < span.count && raw.size() < frame_bytes; ++i) {
      raw.insert(raw.end(), span.line(order[i]), span.line(order[i]) + span.length(order[i]) + 1);
    }
    return raw;
  };
  const TempSettings settings{f.ctx.config, f.ctx.pool, f.ctx.log, f.plan.window_bytes(f.plan.fan_in)};
  decide_run_compression(settings, sample, f.merges.runs(), report.temp);
}

// The whole input in one chunk: written while it is sorted, each final
// part of the order as soon as the sorter hands it over; or, where the
// sorter holds the chunk's text (the GPU that filled its entries) and the
// lines go out as they are, gathered by the sorter once sorted.
void sort_in_memory(const LineRunFormation& f, const LineSpan& span, uint32_t* order, SortReport& report) {
  LineSorter& sorter = f.sorter;
  ThreadPool& pool = f.ctx.pool;
  report.in_memory = true;
  std::unique_ptr<LineWriter> out = f.out.writer(f.ctx, span.bytes(), f.verify);
  f.meter.phase("sorting", 0, nullptr);
  std::optional<bool> by_sorter;  // decided as the first part is handed over
  const SortWriteSpans spans = sort_while_writing(
      span.count, [&](const std::function<void(uint64_t)>& ready) { sorter.sort_in_parts(span, order, ready); },
      [&] { f.meter.phase("writing", span.bytes(), &f.out.blocks.written_bytes()); },
      [&](uint64_t from, uint64_t to) {
        if (!by_sorter) by_sorter = out->copies_as_is() && sorter.holds_text(span);
        if (!*by_sorter) out->append_sorted(pool, span, order + from, to - from);
      });
  if (by_sorter.value_or(false) &&
      !sorter.write_sorted(span, order, [&](const uint8_t* text, uint64_t bytes, bool last) {
        out->append_text(pool, text, bytes, last ? span.count : 0);
      })) {
    out->append_sorted(pool, span, order, span.count);
  }
  out->finish();
  report.output_records += out->lines_written();
  report.output_bytes += out->bytes_written();
  report.add_span(spans.sort);
  if (span.count > 0) report.add_span(PhaseSpan{"gather+write", "main", spans.write_start, process_seconds()});
}

}  // namespace

LinePlan plan_line_chunks(const LineContext& ctx, const LineReader& reader, const LineSorter& sorter) {
  const SortConfig& config = ctx.config;
  const LinePlan plan = plan_lines(config.memory_bytes, sorter.bytes_per_line(), reader.known_bytes(),
                                   config.inputs.size(), config.batch_size, free_descriptors(2), config.spill_streams);
  if (plan.budget > config.memory_bytes) {
    ctx.log.info("memory: -S " + std::to_string(config.memory_bytes) + " bytes raised to the least a line sort takes, " +
                 std::to_string(plan.budget) + " bytes");
  }
  ctx.log.info("lines: sorter " + sorter.describe() + ", chunks of " + std::to_string(plan.chunk_bytes) + " bytes or " +
               std::to_string(plan.chunk_lines) + " lines" +
               (plan.double_buffered ? " (two: one read and sorted while the other is spilled)" : "") +
               ", lines up to " + std::to_string(plan.max_line) + " bytes");
  return plan;
}

namespace {

void say_sort_steps(const LineRunFormation& f) {
  const std::string steps = f.sorter.steps();
  if (!steps.empty()) f.ctx.log.info("lines: sort steps: " + steps);
  const Collation* collation = f.ctx.spec().collation;
  if (collation != nullptr && f.ctx.spec().collate_text) {
    f.ctx.log.info("lines: collation " + collation->name() + ": " + collation->heads_made());
  }
}

// How much the next chunk reads: no more lines than a chunk holds, at the
// mean length so far, so that few are read only to be put back (copied
// twice) for the chunk after.
uint64_t next_read(const LinePlan& plan, const SortReport& report) {
  const uint64_t lines = report.input_records;
  if (lines == 0) return plan.chunk_bytes;
  const uint64_t mean = std::max<uint64_t>(1, report.input_bytes / lines);
  const uint64_t fits = plan.chunk_lines / 16 * 15 * mean;
  return std::clamp<uint64_t>(fits, plan.max_line + 2, plan.chunk_bytes);
}

// The run in flight, finished: into the waiting runs (merged early as
// they call for: src/merge/run_stack.h, as the records'), or held.
void take_run(RunStack& waiting, LineSpill& spill) {
  const bool held = spill.holding();
  PendingSource run = spill.finish();
  if (!held) waiting.push(std::move(run));
}

// A stream's destination made ready as its first chunk arrives, in case
// that chunk holds it whole (not under -u, whose output may be a small
// part); its pieces sorted as they come, where they are (sort_arriving.h).
void watch_first_chunk(const LineRunFormation& f, ArrivingLinePieces* pieces) {
  LineDestination& out = f.out;
  const bool growing = f.reader.known_bytes() == 0 && !f.ctx.config.unique && out.refusal.empty() && !out.encoder &&
                       out.room->may_map() && out.mapped.prepare_growing(f.plan.chunk_bytes, f.ctx.pool);
  MappedDestination* grows = growing ? &out.mapped : nullptr;
  // A stream's size is known only at its end: the sorter starts its device
  // once enough of it has come (the context took 0.2-0.4 s on the H100
  // hosts, 2026-12-06).
  LineSorter* warms = f.reader.known_bytes() == 0 ? &f.sorter : nullptr;
  if (!grows && !pieces && !warms) return;
  f.reader.watch_arrivals([grows, pieces, warms](uint64_t bytes) {
    if (pieces) pieces->arrived(bytes);
    if (grows) grows->grow(bytes);
    if (warms) warms->prepare(bytes);
  });
}

}  // namespace

std::vector<PendingSource> sort_line_chunks(const LineRunFormation& f, SortReport& report) {
  const LinePlan& plan = f.plan;
  LineReader& reader = f.reader;
  LineSorter& sorter = f.sorter;
  sorter.prepare(reader.known_bytes());
  ChunkBuffers buffers[2] = {allocate_chunk(plan, sorter), ChunkBuffers()};
  if (plan.double_buffered) buffers[1] = allocate_chunk(plan, sorter);
  LineGroupMerges early(f.merges, line_merge_limits(plan));
  RunStack waiting(early, report);
  LineSpill spill(f, report);  // after the buffers: a spill in flight ends before they go
  Stopwatch t;
  f.meter.phase("reading", reader.known_bytes(), &f.tally.stored_bytes);
  uint64_t bytes = 0;
  // One chunk of one file in the page cache: its mapping is the chunk.
  if (!plan.double_buffered && sorter.reads_any_memory()) {
    const Stopwatch mapping;
    buffers[0].mapped_text = reader.map_whole(plan.chunk_bytes, f.out.target.file().fd(), &bytes);
    if (buffers[0].mapped_text) {
      f.ctx.log.info("lines: the input is mapped, not read (its pages in the page cache; mapped in " +
                     seconds_text(mapping.seconds()) + ")");
    }
  }
  if (!buffers[0].mapped_text) {
    std::unique_ptr<ArrivingLinePieces> pieces =
        sort_while_arriving(f, buffers[0].text.data(), buffers[1].text.data());
    watch_first_chunk(f, pieces.get());
    bytes = reader.read_chunk(buffers[0].read_into(), plan.chunk_bytes);
    reader.watch_arrivals(nullptr);
    if (pieces) {
      report.add_phase("read", t.lap());
      if (take_arriving_pieces(f, *pieces, bytes, buffers[1].text, report)) {
        say_sort_steps(f);
        return {};
      }
    }
  }
  for (int cur = 0; bytes != 0; cur = plan.double_buffered ? 1 - cur : cur) {
    ChunkBuffers& b = buffers[cur];
    const LineSpan span = index_chunk(f, b, bytes, report);
    report.add_phase("read", t.lap());
    const bool last = reader.done();
    if (last && waiting.empty() && !spill.busy() && f.held.runs() == 0) {
      sort_in_memory(f, span, b.sorted(), report);
      reader.check_mapped_unchanged();  // the output was gathered from it
      say_sort_steps(f);
      return {};
    }
    f.out.mapped.abandon_growth();
    f.meter.phase("sorting", 0, nullptr);
    sorter.sort(span, b.sorted());
    report.add_phase("sort", t.lap());
    // The run before this one: the other buffer is free once it is written.
    if (spill.busy()) take_run(waiting, spill);
    const bool held = f.held.take(f.ctx.log, report.runs, report);
    if (!held) settle_compression(f, span, b.sorted(), report);
    f.meter.phase("spilling", 0, nullptr);
    spill.start(span, b.sorted(), held);
    if (last) break;
    if (!plan.double_buffered) take_run(waiting, spill);
    bytes = reader.read_chunk(buffers[plan.double_buffered ? 1 - cur : cur].read_into(), next_read(plan, report));
    t.lap();
  }
  if (spill.busy()) take_run(waiting, spill);
  reader.check_mapped_unchanged();  // its runs were copied from it
  if (f.held.starting()) f.ctx.log.info("lines: the GPU's memory was not ready before the last run");
  if (const HeldRuns* store = f.held.store(); store != nullptr && store->gathered() > 0) {
    f.ctx.log.info("lines: " + std::to_string(store->gathered()) + " of the " + std::to_string(store->runs()) +
                   " held runs gathered where they are held");
  }
  say_sort_steps(f);
  return waiting.take();
}

}  // namespace gsort
