// Reading the inputs chunk by chunk, sorting each, and writing it to the
// destination (the whole input in one chunk) or spilling it as a run.
#include <algorithm>
#include <future>

#include "src/core/host_buffer.h"
#include "src/core/log.h"
#include "src/core/stopwatch.h"
#include "src/lines/sort/line_index.h"
#include "src/lines/line_job.h"
#include "src/lines/line_reader.h"
#include "src/lines/sort/line_sorter.h"
#include "src/merge/merge_limits.h"

namespace gsort {
namespace {

struct ChunkBuffers {
  HostBuffer text, starts, order;
  uint64_t* start() const { return reinterpret_cast<uint64_t*>(starts.data()); }
  uint32_t* sorted() const { return reinterpret_cast<uint32_t*>(order.data()); }
};

ChunkBuffers allocate_chunk(const LinePlan& plan) {
  ChunkBuffers b;
  b.text = HostBuffer::allocate_pageable(plan.chunk_bytes);
  b.starts = HostBuffer::allocate_pageable((plan.chunk_lines + 1) * sizeof(uint64_t));
  b.order = HostBuffer::allocate_pageable(plan.chunk_lines * sizeof(uint32_t));
  return b;
}

// Indexes the chunk just read; lines past the plan's count go back to the reader.
LineSpan index_chunk(LineJob& job, LineReader& reader, const ChunkBuffers& b, uint64_t bytes) {
  const IndexResult ix = index_lines(job.pool, b.text.data(), bytes, job.spec.eol, b.start(), job.plan.chunk_lines);
  if (ix.longest > job.plan.max_line) {
    uint64_t i = 0;
    while (b.start()[i + 1] - b.start()[i] != ix.longest) ++i;
    reader.too_long(reader.source_of(b.start()[i]));
  }
  if (ix.bytes < bytes) reader.unread(b.text.data(), ix.bytes, bytes);
  job.report.input_records += ix.lines;
  job.report.input_bytes += ix.bytes;
  const LineSpan span{b.text.data(), b.start(), ix.lines};
  if (job.verify) job.verify->input(span.count, hash_lines(job.pool, span));
  return span;
}

}  // namespace

namespace {

// The whole input in one chunk: straight to the destination.
void write_in_memory(LineJob& job, const LineSpan& span, const uint32_t* order, OutputTarget& output) {
  const Stopwatch t;
  job.report.in_memory = true;
  job.meter->phase("writing", span.bytes(), &job.written);
  std::unique_ptr<LineWriter> out = job.destination_writer(output);
  out->append_sorted(job.pool, span, order, span.count);
  out->finish();
  job.report.output_records += out->lines_written();
  job.report.output_bytes += out->bytes_written();
  job.report.add_phase("gather+write", t.seconds());
}

// A sorted chunk written as a run; too many waiting runs merged early.
void spill(LineJob& job, const LineSpan& span, const uint32_t* order, std::deque<LineRun>& runs) {
  const Stopwatch t;
  job.meter->phase("spilling", span.bytes(), nullptr);
  runs.push_back(job.runs().write([&](LineWriter& w) { w.append_sorted(job.pool, span, order, span.count); }));
  ++job.report.runs;
  job.report.temp_record_bytes += runs.back().bytes;
  // Each waiting run holds a descriptor: too many are merged early.
  if (runs.size() >= std::max<uint64_t>(free_descriptors() / 2, job.plan.fan_in)) merge_last_runs(job, runs);
  job.report.add_phase("spill", t.seconds());
}

void plan_chunks(LineJob& job, const LineReader& reader, const LineSorter& sorter) {
  const SortConfig& config = job.config;
  job.plan = plan_lines(config.memory_bytes, sorter.bytes_per_line(), reader.known_bytes(), config.inputs.size(),
                        config.batch_size, free_descriptors() / 2);
  job.sorter = sorter.describe();
  if (job.plan.budget > config.memory_bytes) {
    job.log.info("memory: -S " + std::to_string(config.memory_bytes) + " bytes raised to the least a line sort takes, " +
                 std::to_string(job.plan.budget) + " bytes");
  }
  job.report.memory_budget = job.plan.budget;
  job.report.chunk_records = job.plan.chunk_lines;
  job.log.info("lines: sorter " + sorter.describe() + ", chunks of " + std::to_string(job.plan.chunk_bytes) +
               " bytes or " + std::to_string(job.plan.chunk_lines) + " lines" +
               (job.plan.double_buffered ? " (two, one read while the other is sorted)" : "") + ", lines up to " +
               std::to_string(job.plan.max_line) + " bytes");
}

}  // namespace

bool sort_line_chunks(LineJob& job, std::deque<LineRun>& runs, OutputTarget& output) {
  const SortConfig& config = job.config;
  LineReader reader(config.inputs, job.spec.eol, job.plan.max_line, job.pool, &job.tally,
                    config.page_cache == PageCacheUse::kDrop);
  std::unique_ptr<LineSorter> sorter = make_line_sorter(config, job.spec, job.pool, job.log);
  plan_chunks(job, reader, *sorter);
  ChunkBuffers buffers[2] = {allocate_chunk(job.plan), ChunkBuffers()};
  if (job.plan.double_buffered) buffers[1] = allocate_chunk(job.plan);
  Stopwatch t;
  job.meter->phase("reading", reader.known_bytes(), &job.tally.stored_bytes);
  uint64_t bytes = reader.read_chunk(buffers[0].text.data(), job.plan.chunk_bytes);
  for (int cur = 0; bytes != 0; cur = job.plan.double_buffered ? 1 - cur : cur) {
    const ChunkBuffers& b = buffers[cur];
    const LineSpan span = index_chunk(job, reader, b, bytes);
    job.report.add_phase("read", t.lap());
    // The next chunk is read (into the other buffer) while this one is sorted and spilled.
    std::future<uint64_t> next;
    const bool last = reader.done();
    if (!last && job.plan.double_buffered) {
      uint8_t* other = buffers[1 - cur].text.data();
      next = std::async(std::launch::async, [&reader, other, &job] { return reader.read_chunk(other, job.plan.chunk_bytes); });
    }
    job.meter->phase("sorting", 0, nullptr);
    sorter->sort(span, b.sorted());
    job.report.add_phase("sort", t.lap());
    if (runs.empty() && last) {
      write_in_memory(job, span, b.sorted(), output);
      return true;
    }
    spill(job, span, b.sorted(), runs);
    if (last) break;
    bytes = next.valid() ? next.get() : reader.read_chunk(b.text.data(), job.plan.chunk_bytes);
    t.lap();
  }
  return false;
}

}  // namespace gsort
