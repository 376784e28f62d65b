#include "src/pipeline/form_runs.h"

#include <functional>
#include <memory>

#include "src/core/host_buffer.h"
#include "src/core/stopwatch.h"
#include "src/merge/run_stack.h"
#include "src/pipeline/background_spill.h"
#include "src/pipeline/chunk_reader.h"
#include "src/pipeline/device_runs.h"
#include "src/pipeline/temp_compression.h"

namespace gsort {
namespace {

// The sorted order of each chunk buffer's records: a chunk is sorted while
// the one before it is still being written from the other buffer.
class ChunkOrders {
 public:
  explicit ChunkOrders(uint64_t records) : records_(records) { allocate(); }
  uint32_t* current() { return reinterpret_cast<uint32_t*>(orders_[current_].data()); }
  void advance() { current_ ^= 1; }
  // For a merge between chunks: frees both, then makes them again.
  void release() {
    orders_[0] = HostBuffer();
    orders_[1] = HostBuffer();
  }
  void allocate() {
    // Huge pages where large (HostBuffer): their first-touch faults are on the sort's path.
    for (auto& o : orders_) o = HostBuffer::allocate_pageable(records_ * sizeof(uint32_t));
    current_ = 0;
  }

 private:
  const uint64_t records_;
  HostBuffer orders_[2];
  int current_ = 0;
};

// Whether the current chunk is the whole input, known without waiting
// (before the sort starts, without the read-ahead's answer): it is short, or
// the input's size says so.
bool whole_input_in_hand(const InputSet& inputs, const ChunkReader& chunks, uint64_t chunk_records, uint32_t rs) {
  if (chunks.count() < chunk_records) return true;
  return inputs.size_known() && inputs.total_bytes() / rs <= chunks.count();
}

// The same, or (a stream) nothing follows it: waits for the read-ahead only
// for a stream.
bool only_chunk(const InputSet& inputs, ChunkReader& chunks, uint64_t chunk_records, uint32_t rs) {
  if (whole_input_in_hand(inputs, chunks, chunk_records, rs)) return true;
  return !inputs.size_known() && chunks.next_count() == 0;
}

// The whole input in one chunk: no temp files, written while it is sorted,
// as the in-memory sort does; by `arriving` where it was sorted as it came.
void sort_and_write_whole(const RunFormation& f, ChunkReader& chunks, uint32_t* order, ChunkSortSession* arriving,
                          SortReport& report) {
  report.in_memory = true;
  const uint8_t* records = chunks.records();
  const uint64_t count = chunks.count();
  if (arriving != nullptr) {
    f.direct.sort_and_write(records, count, order, [&](uint32_t* into, const OrderProgress& ready) {
      arriving->finish_in_parts(into, count, ready);
    });
    return;
  }
  SortBackend& backend = f.ctx.backend.backend_for_whole_input(count);
  f.direct.sort_and_write(records, count, order, [&](uint32_t* into, const OrderProgress& ready) {
    backend.sort_order_in_parts(records, count, into, ready);
  });
}

}  // namespace

std::vector<PendingSource> form_runs(const RunFormation& f, SortReport& report) {
  std::vector<PendingSource> on_device;
  if (form_runs_on_device(f, on_device, report)) return on_device;
  const SortContext& ctx = f.ctx;
  const uint32_t rs = ctx.layout.record_size();
  InputSet& inputs = f.inputs;
  RunStack waiting(f.merges, report);  // the runs formed, merged early as needed
  const uint64_t chunk = f.plan.chunk_records;
  const size_t files_per_run = f.plan.spill_streams;
  ChunkReader chunks(inputs, ctx.backend, chunk, rs, ChunkReader::readers_for(ctx.pool.size()));
  ChunkOrders orders(chunk);
  // After the buffers it reads: a spill in flight ends before they go.
  BackgroundSpill spill(f.runs, ctx.pool, f.plan.spill_streams, report);
  f.progress.phase("forming runs");
  // A stream's first chunk is sorted as it arrives where the backend can
  // (begin_stream), and its output made ready meanwhile (f.growth).
  std::unique_ptr<ChunkSortSession> arriving =
      inputs.size_known() ? nullptr : ctx.backend.begin_stream(chunks.records(), chunk);
  const std::function<void(uint64_t)> arrived = [&](uint64_t bytes) {
    if (f.growth != nullptr) f.growth->arrived(bytes);
    if (arriving) arriving->records_ready(bytes / rs);
  };
  if (arriving) ctx.log.info("input: a stream, sorted in pieces as it arrives");
  chunks.read_first(&arrived);
  bool more = true;
  while (more) {
    report.input_records += chunks.count();
    if (waiting.empty() && !spill.busy() && whole_input_in_hand(inputs, chunks, chunk, rs)) {
      sort_and_write_whole(f, chunks, orders.current(), arriving.get(), report);
      break;
    }
    arriving.reset();  // more than one chunk: each is sorted once it is read
    // A spill that has ended gives its buffer back now, so that the next
    // chunk is read while this one is sorted.
    if (spill.busy() && spill.ended()) waiting.push(spill.finish());
    const size_t in_flight = spill.busy() ? 1 : 0;
    // A spill that makes the runs merge early is written before the merge,
    // with no read-ahead, so that both chunk buffers (and the orders) are
    // free while the merge runs, and it has the whole budget.
    const bool merges_next = waiting.push_would_merge(true, in_flight, files_per_run);
    if (!merges_next && !spill.busy()) chunks.read_ahead();
    const Stopwatch t;
    ctx.backend.sort_order(chunks.records(), chunks.count(), orders.current());
    report.add_phase("sort", t.seconds());
    if (spill.busy()) {
      // It did not merge when it was started, and does not now.
      waiting.push(spill.finish());
      if (!merges_next) chunks.read_ahead();
    }
    if (waiting.empty() && only_chunk(inputs, chunks, chunk, rs)) {  // no temp files needed
      report.in_memory = true;
      f.direct.write(chunks.records(), orders.current(), chunks.count());
      break;
    }
    if (f.growth != nullptr) f.growth->abandon();
    decide_run_compression(ctx, f.plan.source_records, RunSample{chunks.records(), orders.current(), chunks.count()},
                           f.runs, report.temp);
    spill.start(chunks.records(), orders.current(), chunks.count());
    if (merges_next) {
      PendingSource run = spill.finish();
      chunks.release();
      orders.release();
      waiting.push(std::move(run));
      orders.allocate();
      more = chunks.read_after_release();
    } else {
      more = chunks.advance();
      orders.advance();
    }
  }
  if (spill.busy()) waiting.push(spill.finish());
  report.input_bytes = report.input_records * rs;
  for (const PhaseSpan& span : chunks.read_spans()) report.add_span(span);
  if (report.runs > 0) {
    ctx.log.info("formed " + plural(report.runs, "run") + " of up to " + plural(chunk, "record") + ", " +
                 plural(f.plan.spill_streams, "stream") + " each");
  }
  return waiting.take();
}

}  // namespace gsort
