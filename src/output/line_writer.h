// The end of every sorted stream of lines: lines appended in order, each
// written with its terminator into the blocks of a BlockTarget
// (src/output/block_writer.h): write-behind buffers on their way to a sink
// (the output, its encoder, or a run file), or the output file itself,
// mapped (io/output/mapped_window.h), which the pool's threads then fill at
// once. With -u (unique_by), a line whose keys equal the last kept line's
// is dropped, so the first of each group of equal lines survives.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include <memory>

#include "io/output/block_target.h"
#include "io/output/write_behind.h"
#include "src/algo/line_index.h"
#include "src/core/thread_pool.h"
#include "src/keys/line_compare.h"
#include "src/output/block_writer.h"
#include "src/verify/line_ledger.h"

namespace gsort {

// A line where it lies (no terminator).
struct LineRef {
  const uint8_t* line;
  uint64_t length;
};

class LineWriter : public BlockWriter {
 public:
  // unique_by: null keeps every line.
  LineWriter(std::unique_ptr<BlockTarget> target, uint8_t eol, const LineComparator* unique_by);
  // Blocks of block_bytes through write-behind buffers into `sink`.
  LineWriter(WriteBehind::Sink sink, uint64_t block_bytes, uint8_t eol, const LineComparator* unique_by);

  // --verify: every line written (when this is the final output), or
  // dropped by -u, is shown to `verify`. A run's writer tells only the
  // lines it drops; its lines are told when the merge writes them.
  void verify_with(LineVerify* verify, bool final_output = true) {
    verify_ = verify;
    final_ = final_output;
  }

  // Whether lines go out as they are handed over (no -u, no --verify):
  // then append_text() may take them already gathered.
  bool copies_as_is() const { return comparison() == nullptr; }
  // `bytes` of text holding whole lines, each with its terminator, copied
  // by the pool's threads; `lines`: how many lines it ends (they may be
  // counted with the last piece of a chunk).
  void append_text(ThreadPool& pool, const uint8_t* text, uint64_t bytes, uint64_t lines);
  // One line (no terminator): the merge's path.
  void append(const uint8_t* line, uint64_t len);
  // lines[order[0, count)] in that order, gathered into the write buffers
  // by the pool's threads.
  void append_sorted(ThreadPool& pool, const LineSpan& lines, const uint32_t* order, uint64_t count);
  // The same for lines given by where they are (the merge's batches).
  void append_lines(ThreadPool& pool, const LineRef* lines, uint64_t count);
  // As append_sorted, for what fits the current block only (handed over
  // once full); returns how many of `order` it took (at least one when
  // count > 0). Lets one thread feed several writers in turn.
  uint64_t append_sorted_block(ThreadPool& pool, const LineSpan& lines, const uint32_t* order, uint64_t count);
  // -u and --verify: the next line follows `line`, written elsewhere (the
  // slice of a sorted chunk before this writer's).
  void follow(const uint8_t* line, uint64_t len);

  // Writes what is buffered and waits for the sink.
  void finish();
  uint64_t lines_written() const { return lines_; }
  uint64_t bytes_written() const { return bytes_; }

 private:
  // Copies bytes into the buffers, flushing full ones (a line may span several).
  void put(const uint8_t* p, uint64_t n);
  void flush();
  // The comparison adjacent lines go through: -u's, or --verify's.
  const LineComparator* comparison() const { return unique_by_ ? unique_by_ : verify_ ? &verify_->comparison() : nullptr; }
  // How line compares with the last one kept (-1 when none is).
  int against_last(const uint8_t* line, uint64_t len) const {
    return has_last_ ? comparison()->compare(last_, last_len_, line, len) : -1;
  }
  // Remembers the line just kept (in the block, or copied) where lines are compared.
  void note_kept(const uint8_t* line, uint64_t len, bool in_block) {
    if (comparison()) keep_last(line, len, in_block);
  }
  // The current block, taken on first use (a mapped one waits for its pages).
  void ensure_block() {
    if (!block_) take_block();
  }
  // The batch path over any sequence of lines (line(j), length(j)):
  // offset[0, n] is where lines first .. first+n-1 go in the buffer, from
  // its fill on (a line -u drops takes no room); gather copies those that fit.
  template <typename Lines>
  void append_batch(ThreadPool& pool, const Lines& lines, uint64_t count);
  // Appends lines until the current block is handed over; returns how many it took.
  template <typename Lines>
  uint64_t fill_block(ThreadPool& pool, const Lines& lines, uint64_t count);
  // Counts the n lines just gathered at offset[0, n] of the block (-u's
  // drops take no room); `kept`: how many of them -u kept, where known
  // (else kUnknownKept: counted here).
  static constexpr uint64_t kUnknownKept = ~uint64_t{0};
  void note_gathered(const LineRef* refs, const std::vector<uint64_t>& offset, uint64_t n, uint64_t kept);
  // refs receives where each of those lines is; returns how many -u keeps.
  template <typename Lines>
  uint64_t batch_offsets(ThreadPool& pool, const Lines& lines, uint64_t first, uint64_t n,
                         std::vector<uint64_t>& offset, std::vector<LineRef>& refs);
  void gather(ThreadPool& pool, const LineRef* refs, const std::vector<uint64_t>& offset, uint64_t n);

  uint8_t eol_;
  const LineComparator* unique_by_;
  uint64_t lines_ = 0;
  uint64_t bytes_ = 0;
  LineVerify* verify_ = nullptr;
  bool final_ = true;
  uint64_t kept_sum_ = 0, dropped_sum_ = 0, dropped_ = 0;  // --verify's, handed over at finish()
};

}  // namespace gsort
