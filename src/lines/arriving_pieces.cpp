#include "src/lines/arriving_pieces.h"

#include <algorithm>
#include <cstring>

#include "src/core/stopwatch.h"
#include "src/verify/line_ledger.h"

namespace gsort {
namespace {

constexpr uint64_t kLinesPerCopyTask = 1 << 16;  // fewer lines than this are copied on one thread
constexpr uint64_t kMostGrownPiece = uint64_t{256} << 20;

}  // namespace

ArrivingLinePieces::ArrivingLinePieces(LineSorter& sorter, ThreadPool& pool, uint8_t eol, const uint8_t* text,
                                       uint8_t* sorted, uint64_t least_piece, uint64_t most_piece_lines, bool hash,
                                       bool cut_after_end)
    : sorter_(sorter),
      pool_(pool),
      eol_(eol),
      text_(text),
      sorted_(sorted),
      least_piece_(std::max<uint64_t>(least_piece, 1)),
      most_piece_lines_(std::max<uint64_t>(most_piece_lines, 1)),
      hash_(hash),
      cut_after_end_(cut_after_end),
      pieces_([this](uint64_t begin, uint64_t available, uint64_t final) {
                return next_piece_end(begin, available, final);
              },
              [this](uint64_t begin, uint64_t end) { return sort_piece(begin, end); }) {}

void ArrivingLinePieces::arrived(uint64_t bytes) { pieces_.arrived(bytes); }

bool ArrivingLinePieces::finish(uint64_t bytes) { return pieces_.finish(bytes, !cut_after_end_); }

void ArrivingLinePieces::abandon() { pieces_.stop(); }

uint64_t ArrivingLinePieces::next_piece_end(uint64_t begin, uint64_t available, uint64_t final) const {
  // An eighth of what came before, up to kMostGrownPiece: few pieces for
  // the merge, and a short last piece, sorted after the stream's end.
  const uint64_t need = begin + std::max(least_piece_, std::min(begin / 8, kMostGrownPiece));
  if (final != PieceThread::kUnknown) {
    if (begin >= final) return 0;
    return cut_after_end_ ? cut_before(begin, need, final) : final;  // the chunk ends with a terminator
  }
  if (available < need) return 0;
  // The bytes before `available` no longer change; a piece takes them all
  // (with cut_after_end, up to `need`); none while one line has not ended.
  return cut_after_end_ ? cut_before(begin, need, available) : cut_before(begin, available, available);
}

uint64_t ArrivingLinePieces::cut_before(uint64_t begin, uint64_t at, uint64_t upto) const {
  at = std::min(at, upto);
  const void* last = memrchr(text_ + begin, eol_, static_cast<size_t>(at - begin));
  if (!last) last = std::memchr(text_ + at, eol_, static_cast<size_t>(upto - at));
  return last ? static_cast<uint64_t>(static_cast<const uint8_t*>(last) - text_) + 1 : 0;
}

uint64_t ArrivingLinePieces::sort_piece(uint64_t begin, uint64_t end) {
  Stopwatch t;
  const uint8_t* text = text_ + begin;
  const IndexResult ix = index_lines(pool_, text, end - begin, eol_, most_piece_lines_, [this](uint64_t lines) {
    return index_.room_for(lines, [](size_t bytes) { return HostBuffer::allocate_pageable(bytes); });
  });
  const LineSpan span{text, index_.start(), ix.lines};
  sorter_.sort(span, index_.sorted());
  if (hash_) figures_.hash_sum += hash_lines(pool_, span);
  figures_.lines += ix.lines;
  figures_.longest = std::max(figures_.longest, ix.longest);
  figures_.sort_s += t.lap();
  copy_in_order(begin, ix.lines);
  figures_.copy_s += t.lap();
  return begin + ix.bytes;
}

// A loop of its own rather than a LineWriter over the piece, whose batches
// of refs and offsets made this copy slower (docs/benchmarks.md).
void ArrivingLinePieces::copy_in_order(uint64_t begin, uint64_t lines) {
  const uint8_t* text = text_ + begin;
  uint8_t* out = sorted_ + begin;
  const uint64_t* starts = index_.start();
  const uint32_t* order = index_.sorted();
  const size_t tasks = lines < kLinesPerCopyTask ? 1 : pool_.balanced_task_count();
  // Each task's lines, then where they go: the bytes of the tasks before.
  std::vector<uint64_t> at(tasks + 1, 0);
  pool_.parallel_for(tasks, [&](size_t k) {
    uint64_t bytes = 0;
    for (uint64_t i = split_point(lines, tasks, k), e = split_point(lines, tasks, k + 1); i < e; ++i) {
      bytes += starts[order[i] + 1] - starts[order[i]];
    }
    at[k + 1] = bytes;
  });
  for (size_t k = 0; k < tasks; ++k) at[k + 1] += at[k];
  pool_.parallel_for(tasks, [&](size_t k) {
    uint8_t* to = out + at[k];
    for (uint64_t i = split_point(lines, tasks, k), e = split_point(lines, tasks, k + 1); i < e; ++i) {
      const uint64_t from = starts[order[i]], bytes = starts[order[i] + 1] - from;  // its terminator included
      std::memcpy(to, text + from, bytes);
      to += bytes;
    }
  });
}

}  // namespace gsort
