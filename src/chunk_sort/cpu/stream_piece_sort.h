// A stream's chunk sorted on the CPU while it arrives (issue 38): each
// piece that has come (at least piece_records records, or all that came
// while the one before was sorted) is sorted into its part of the entries
// on a thread of its own, with the pool's threads, while the stream is
// still read. When it ends, the last piece is sorted and the pieces are
// merged in one pass: cut into key ranges at splitters sampled from them,
// each range merged by a loser tree on one of the pool's threads, and each
// prefix of the order reported as soon as the ranges up to it are done, so
// that the output is gathered while the rest merges.
#pragma once

#include <cstdint>
#include <vector>

#include "src/chunk_sort/entries/key_entry.h"
#include "src/chunk_sort/sort_backend.h"
#include "src/core/host_buffer.h"
#include "src/core/piece_thread.h"
#include "src/core/thread_pool.h"
#include "src/keys/key_layout.h"

namespace gsort {

class StreamPieceSort final : public ChunkSortSession {
 public:
  // Pieces of 64 MiB of records, at least 64Ki records.
  static uint64_t default_piece_records(uint32_t record_size);

  // `records` has room for `capacity` records, filled from its start.
  // `timings` (the backend's) gets the time spent sorting and merging.
  StreamPieceSort(const KeyLayout& layout, ThreadPool& pool, const uint8_t* records, uint64_t capacity,
                  uint64_t piece_records, BackendTimings& timings);
  ~StreamPieceSort() override;  // stops the sorting thread after the piece under way
  StreamPieceSort(const StreamPieceSort&) = delete;
  StreamPieceSort& operator=(const StreamPieceSort&) = delete;

  void records_ready(uint64_t available) override;
  void finish(uint32_t* order) override;
  void finish_in_parts(uint32_t* order, uint64_t count, const OrderProgress& ready) override;

  // Blocks until the sorting thread has sorted every piece the records
  // ready so far make (what is left is less than a piece); tests use it to
  // cut pieces where they want.
  void wait_caught_up() { pieces_.wait_caught_up(); }
  // The pieces sorted so far (tests, once caught up).
  size_t pieces() const { return pieces_.bounds().size() - 1; }

 private:
  uint64_t sort_piece(uint64_t begin, uint64_t end);

  const KeyLayout& layout_;
  ThreadPool& pool_;
  const uint8_t* const records_;
  const uint64_t capacity_;
  const uint64_t piece_records_;
  BackendTimings& timings_;
  HostBuffer entries_buf_, scratch_buf_;
  // Pieces of records, each sorted in its part of entries_buf_. Last: its
  // thread starts once the members above exist.
  PieceThread pieces_;
};

}  // namespace gsort
