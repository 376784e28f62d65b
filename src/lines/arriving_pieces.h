// A stream's chunk of lines sorted while it arrives (issue 38), as the
// records' StreamPieceSort does for records: a thread of its own takes each
// piece of whole lines that has come (at least least_piece bytes, and an
// eighth of what came before it up to 256 MiB), finds its lines, sorts them
// with the chunk's sorter on the pool's threads, and copies them in order
// into `sorted`, at the piece's own offsets. When the stream ends, the rest
// is sorted as the last piece: `sorted` then holds sorted runs end to end,
// which the final merge in ranges writes straight into the destination,
// so that after the last byte only the last piece and the merge are left.
#pragma once

#include <cstdint>
#include <vector>

#include "src/algo/line_index.h"
#include "src/chunk_sort/lines/sorter.h"
#include "src/core/piece_thread.h"
#include "src/core/thread_pool.h"

namespace gsort {

class ArrivingLinePieces {
 public:
  struct Figures {
    uint64_t lines = 0;
    uint64_t longest = 0;   // the longest line, terminator included
    uint64_t hash_sum = 0;  // the lines' hashes for --verify (with `hash`)
    double sort_s = 0;      // indexing and sorting the pieces
    double copy_s = 0;      // copying them in order into `sorted`
  };

  // text: the chunk as it is read; sorted: as many bytes, written here
  // only. A piece holds at most most_piece_lines lines. cut_after_end (the
  // tests'): what is left when the chunk ends is cut into pieces as what
  // came before, whatever the timing, so that the pieces are known.
  ArrivingLinePieces(LineSorter& sorter, ThreadPool& pool, uint8_t eol, const uint8_t* text, uint8_t* sorted,
                     uint64_t least_piece, uint64_t most_piece_lines, bool hash, bool cut_after_end = false);
  ~ArrivingLinePieces() = default;  // stops after the piece under way
  ArrivingLinePieces(const ArrivingLinePieces&) = delete;
  ArrivingLinePieces& operator=(const ArrivingLinePieces&) = delete;

  // text[0, bytes) holds its final bytes (the reader's thread).
  void arrived(uint64_t bytes);
  // The chunk ended at `bytes` (whole lines): sorts the rest as the last
  // piece and waits for it. False, and nothing more is sorted, where no
  // piece had begun (the chunk is better sorted at once); rethrows what the
  // thread threw.
  bool finish(uint64_t bytes);
  // Stops taking pieces and waits for the one under way (the chunk is
  // sorted another way; `sorted` is free once this returns).
  void abandon();

  // Piece p is bytes [bounds()[p], bounds()[p + 1]) of both buffers.
  const std::vector<uint64_t>& bounds() const { return pieces_.bounds(); }
  const Figures& figures() const { return figures_; }

 private:
  // The next piece's end from `begin` (a terminator's offset + 1), given
  // what has arrived and the chunk's end once known; 0: none yet.
  uint64_t next_piece_end(uint64_t begin, uint64_t available, uint64_t final) const;
  // The end of a piece from `begin` (a terminator's offset + 1): the last
  // terminator before `at`, else the first before `upto`; 0: none.
  uint64_t cut_before(uint64_t begin, uint64_t at, uint64_t upto) const;
  // Indexes, sorts and copies text[begin, end); returns where the piece
  // ended (before `end` where it holds too many lines).
  uint64_t sort_piece(uint64_t begin, uint64_t end);
  // The piece's lines, in order, into sorted_[begin, ...) on the pool.
  void copy_in_order(uint64_t begin, uint64_t lines);

  LineSorter& sorter_;
  ThreadPool& pool_;
  const uint8_t eol_;
  const uint8_t* const text_;
  uint8_t* const sorted_;
  const uint64_t least_piece_;
  const uint64_t most_piece_lines_;
  const bool hash_;
  const bool cut_after_end_;
  LineIndexBuffers index_;  // the piece's, grown as pieces need
  Figures figures_;
  PieceThread pieces_;  // last: its thread starts once the members above exist
};

}  // namespace gsort
