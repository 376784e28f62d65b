#include "src/output/line_writer.h"

#include <algorithm>
#include <cstring>

#include "src/core/errors.h"
#include "src/core/host_buffer.h"

namespace gsort {
namespace {

constexpr uint64_t kBatchLines = 1 << 18;  // lines whose sizes are summed at once
constexpr uint64_t kParallelGatherBytes = 1 << 20;  // less than this is copied by one thread

}  // namespace

LineWriter::LineWriter(std::unique_ptr<BlockTarget> target, uint8_t eol, const LineComparator* unique_by)
    : BlockWriter(std::move(target)), eol_(eol), unique_by_(unique_by) {}

LineWriter::LineWriter(WriteBehind::Sink sink, uint64_t block_bytes, uint8_t eol, const LineComparator* unique_by)
    : LineWriter(std::make_unique<WriteBehind>(std::move(sink), std::max<uint64_t>(block_bytes, 4096)), eol,
                 unique_by) {}

void LineWriter::flush() {
  if (used_ != 0) hand_over();
}

void LineWriter::put(const uint8_t* p, uint64_t n) {
  while (n > 0) {
    ensure_block();
    if (capacity_ == 0) throw Error("internal error: the output outgrew the range reserved for it");
    const uint64_t k = std::min<uint64_t>(n, capacity_ - used_);
    std::memcpy(block_ + used_, p, k);
    used_ += k;
    p += k;
    n -= k;
    if (used_ == capacity_) flush();
  }
}

void LineWriter::append(const uint8_t* line, uint64_t len) {
  if (comparison()) {
    const int d = against_last(line, len);
    if (verify_ && d > 0) verify_->disorder(lines_ + 1);  // its number in the output (-u's drops not counted)
    if (unique_by_ && d == 0) {
      ++dropped_;
      if (verify_) dropped_sum_ += hash_line(line, len);
      return;
    }
    if (verify_) kept_sum_ += hash_line(line, len);
  }
  ++lines_;
  bytes_ += len + 1;
  ensure_block();
  if (len + 1 <= capacity_ - used_) {
    uint8_t* at = block_ + used_;
    std::memcpy(at, line, len);
    at[len] = eol_;
    used_ += len + 1;
    note_kept(at, len, true);
    if (used_ == capacity_) flush();
    return;
  }
  note_kept(line, len, false);  // before put() may flush the buffer it would point into
  put(line, len);
  put(&eol_, 1);
}

namespace {

// The lines of a chunk in sorted order.
struct OrderedLines {
  const LineSpan& span;
  const uint32_t* order;
  const uint8_t* line(uint64_t j) const { return span.line(order[j]); }
  uint64_t length(uint64_t j) const { return span.length(order[j]); }
  void prefetch(uint64_t j) const { __builtin_prefetch(span.starts + order[j]); }
};

// Lines `from` on of another sequence.
template <typename Lines>
struct Shifted {
  const Lines& lines;
  uint64_t from;
  const uint8_t* line(uint64_t j) const { return lines.line(from + j); }
  uint64_t length(uint64_t j) const { return lines.length(from + j); }
  void prefetch(uint64_t j) const { lines.prefetch(from + j); }
};

// Lines given by where they are.
struct RefLines {
  const LineRef* refs;
  const uint8_t* line(uint64_t j) const { return refs[j].line; }
  uint64_t length(uint64_t j) const { return refs[j].length; }
  void prefetch(uint64_t j) const { __builtin_prefetch(refs[j].line); }
};

// Lines ahead whose places (or bytes) are asked for early: they lie
// anywhere in their chunk.
constexpr uint64_t kAhead = 16;

// Runs body(task, begin, end) over [0, n) on the pool's threads (one
// task, on this thread, when `parallel` is false).
template <typename Body>
void in_tasks(ThreadPool& pool, bool parallel, uint64_t n, Body body) {
  const size_t tasks = parallel && pool.size() > 1 ? pool.balanced_task_count() : 1;
  if (tasks == 1) {
    body(size_t{0}, uint64_t{0}, n);
    return;
  }
  pool.parallel_for(tasks, [&](size_t t) { body(t, split_point(n, tasks, t), split_point(n, tasks, t + 1)); }, true);
}

size_t tasks_of(ThreadPool& pool, bool parallel) { return parallel && pool.size() > 1 ? pool.balanced_task_count() : 1; }

}  // namespace

void LineWriter::gather(ThreadPool& pool, const LineRef* refs, const std::vector<uint64_t>& offset, uint64_t n) {
  uint8_t* base = block_ + used_;
  const bool parallel = offset[n] - offset[0] >= kParallelGatherBytes;
  std::vector<uint64_t> kept(tasks_of(pool, parallel), 0), dropped(kept.size(), 0);  // --verify's hash sums
  in_tasks(pool, parallel, n, [&](size_t t, uint64_t b, uint64_t e) {
    for (uint64_t j = b; j < e; ++j) {
      if (j + kAhead / 2 < e) __builtin_prefetch(refs[j + kAhead / 2].line);
      const uint64_t size = offset[j + 1] - offset[j];
      if (verify_) (size == 0 ? dropped[t] : kept[t]) += hash_line(refs[j].line, refs[j].length);
      if (size == 0) continue;
      std::memcpy(base + offset[j], refs[j].line, refs[j].length);
      base[offset[j] + refs[j].length] = eol_;
    }
    // A mapped output's pages keep their page-table entries until the
    // unmap: dropped here (f9a802b), each task's few hundred KB a batch
    // took a TLB shootdown of every thread. On the H200 host (2026-12-03,
    // 2 GB, 3 interleaved rounds) gather+write took 0.74-0.83 s of
    // -t, -k3,3n against 0.43-0.46 without, for 0.05 s more in the unmap.
  });
  for (size_t t = 0; t < kept.size(); ++t) {
    kept_sum_ += kept[t];
    dropped_sum_ += dropped[t];
  }
}

template <typename Lines>
uint64_t LineWriter::batch_offsets(ThreadPool& pool, const Lines& lines, uint64_t first, uint64_t n,
                                   std::vector<uint64_t>& offset, std::vector<LineRef>& refs) {
  offset.resize(n + 1);
  offset[0] = 0;
  refs.resize(n);
  const bool parallel = n >= 4096;
  const size_t tasks = tasks_of(pool, parallel);
  // Per task: its lines' bytes and how many it keeps; --verify: its first
  // line out of order (from 1) and the lines kept up to it.
  std::vector<uint64_t> bytes(tasks, 0), kept(tasks, 0), disorder(tasks, 0), kept_to_disorder(tasks, 0);
  // offset[j + 1] first holds the bytes of the task's lines up to line j
  // (each with its terminator; none for a line -u drops): the tasks sum
  // their own, and their starts are added after, on the same split.
  in_tasks(pool, parallel, n, [&](size_t t, uint64_t b, uint64_t e) {
    uint64_t sum = 0, k = 0;
    for (uint64_t j = b; j < e; ++j) {
      if (j + kAhead < e) lines.prefetch(first + j + kAhead);
      const uint8_t* line = lines.line(first + j);
      const uint64_t len = lines.length(first + j);
      refs[j] = LineRef{line, len};
      int d = -1;
      if (comparison()) {
        d = j == 0 ? against_last(line, len)
                   : comparison()->compare(lines.line(first + j - 1), lines.length(first + j - 1), line, len);
      }
      const bool keep = !(unique_by_ && d == 0);
      k += keep;
      if (d > 0 && disorder[t] == 0) {
        disorder[t] = j + 1;
        kept_to_disorder[t] = k;
      }
      sum += keep ? len + 1 : 0;
      offset[j + 1] = sum;
    }
    bytes[t] = sum;
    kept[t] = k;
  });
  std::vector<uint64_t> start(tasks, 0);
  for (size_t t = 1; t < tasks; ++t) start[t] = start[t - 1] + bytes[t - 1];
  if (tasks > 1) {
    in_tasks(pool, parallel, n, [&](size_t t, uint64_t b, uint64_t e) {
      if (start[t] == 0) return;
      for (uint64_t j = b; j < e; ++j) offset[j + 1] += start[t];
    });
  }
  uint64_t kept_before = 0;
  for (size_t t = 0; t < tasks; ++t) {
    // Its number in the output: the lines written before the batch, and
    // those of the batch kept up to it.
    if (disorder[t] != 0 && verify_) verify_->disorder(lines_ + kept_before + kept_to_disorder[t]);
    kept_before += kept[t];
  }
  return kept_before;
}

template <typename Lines>
uint64_t LineWriter::fill_block(ThreadPool& pool, const Lines& lines, uint64_t count) {
  std::vector<uint64_t> offset;
  std::vector<LineRef> refs;
  ensure_block();
  const uint64_t blocks = blocks_;
  uint64_t done = 0;
  while (done < count && blocks_ == blocks) {
    // About as many lines as the buffer has room for, by the mean size so far.
    const uint64_t mean = lines_ + dropped_ == 0 ? 64 : std::max<uint64_t>(1, bytes_ / (lines_ + dropped_));
    const uint64_t room_for = (capacity_ - used_) / mean + 64;
    const uint64_t n = std::min({kBatchLines, count - done, room_for});
    const uint64_t kept = batch_offsets(pool, lines, done, n, offset, refs);
    // As many as fit the buffer; a first line that does not fit goes alone.
    const uint64_t room = capacity_ - used_;
    const uint64_t fit = static_cast<uint64_t>(std::upper_bound(offset.begin() + 1, offset.end(), room) - offset.begin()) - 1;
    if (fit == 0) {
      if (used_ != 0 && offset[1] <= capacity_) {
        flush();
        continue;
      }
      append(lines.line(done), lines.length(done));  // kept or dropped, it tells
      done += 1;
      continue;
    }
    gather(pool, refs.data(), offset, fit);
    note_gathered(refs.data(), offset, fit, fit == n ? kept : kUnknownKept);
    done += fit;
    if (capacity_ - used_ < 4096) flush();
  }
  return done;
}

void LineWriter::note_gathered(const LineRef* refs, const std::vector<uint64_t>& offset, uint64_t n,
                               uint64_t kept) {
  if (kept == kUnknownKept) {
    kept = 0;
    for (uint64_t j = 0; j < n; ++j) kept += offset[j + 1] != offset[j];
  }
  dropped_ += n - kept;
  for (uint64_t j = n; comparison() && j-- > 0;) {
    if (offset[j + 1] == offset[j]) continue;
    note_kept(block_ + used_ + offset[j], refs[j].length, true);
    break;
  }
  lines_ += kept;
  bytes_ += offset[n];
  used_ += offset[n];
}

template <typename Lines>
void LineWriter::append_batch(ThreadPool& pool, const Lines& lines, uint64_t count) {
  for (uint64_t done = 0; done < count;) done += fill_block(pool, Shifted<Lines>{lines, done}, count - done);
}

void LineWriter::append_text(ThreadPool& pool, const uint8_t* text, uint64_t bytes, uint64_t lines) {
  lines_ += lines;
  bytes_ += bytes;
  while (bytes > 0) {
    ensure_block();
    if (capacity_ == 0) throw Error("internal error: the output outgrew the range reserved for it");
    const uint64_t k = std::min<uint64_t>(bytes, capacity_ - used_);
    parallel_copy(pool, block_ + used_, text, k);  // one thread, inline, for less than 1 MiB
    used_ += k;
    text += k;
    bytes -= k;
    if (used_ == capacity_) flush();
  }
}

void LineWriter::follow(const uint8_t* line, uint64_t len) { note_kept(line, len, false); }

uint64_t LineWriter::append_sorted_block(ThreadPool& pool, const LineSpan& lines, const uint32_t* order,
                                         uint64_t count) {
  return fill_block(pool, OrderedLines{lines, order}, count);
}

void LineWriter::append_sorted(ThreadPool& pool, const LineSpan& lines, const uint32_t* order, uint64_t count) {
  append_batch(pool, OrderedLines{lines, order}, count);
}

void LineWriter::append_lines(ThreadPool& pool, const LineRef* lines, uint64_t count) {
  append_batch(pool, RefLines{lines}, count);
}

void LineWriter::finish() {
  finish_blocks();
  if (verify_) {
    if (final_) verify_->written(lines_, kept_sum_);
    verify_->dropped(dropped_, dropped_sum_);
    kept_sum_ = dropped_sum_ = 0;
  }
}

}  // namespace gsort
