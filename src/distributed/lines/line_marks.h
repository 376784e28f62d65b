// Ranks that share one host and read the same input files (one view:
// ranks/input_views.h) need not send each other lines: the page cache
// already holds every byte for every rank. The sender of a window routes
// it (window_router.h) and sends its marks instead, a byte per line naming
// the rank whose key range holds it; each receiver maps the same window of
// the input and copies the lines marked for it, in order, on its threads.
// MPI moves a byte a line where it moved every line twice (into its
// shared-memory buffers and out) on one thread.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "src/config/sort_config.h"
#include "src/core/host_buffer.h"
#include "src/core/thread_pool.h"
#include "src/distributed/ranks/input_views.h"

namespace gsort {

// Which ranks `me` trades marks with rather than lines (marked[r]): those
// that read the inputs through its view (`views`, the same on every rank:
// one host, the same files), where a mark (a byte) names any rank and
// --exchange is auto or shm (mpi and nccl keep the lines' bytes on MPI).
// Never `me` itself. Symmetric: a rank marks for those that mark for it.
std::vector<bool> ranks_sent_marks(const InputViews& views, int me, ExchangeChoice exchange);
// Whether any two ranks trade marks.
bool any_ranks_trade_marks(const InputViews& views, ExchangeChoice exchange);

// One window's marks as sent: where the window lies in the inputs taken
// end to end ([place, stop), read as read_window reads it), its text's
// size (a terminator added counts), where each of the sender's tasks
// begins in that text and the first of its lines, and a mark per line.
struct WindowMarks {
  uint64_t place = 0;
  uint64_t stop = 0;
  uint64_t size = 0;
  std::vector<uint64_t> task_begin;  // one per task, then `size`
  std::vector<uint64_t> first_line;  // one per task, then the lines
  const uint8_t* marks = nullptr;    // first_line.back() of them
};

// The message for a window whose tasks began at task_begin (offsets in its
// text of `size` bytes) and marked their lines `marks` (one vector a task).
std::vector<uint8_t> encode_marks(uint64_t place, uint64_t stop, uint64_t size, const std::vector<uint64_t>& task_begin,
                                  const std::vector<std::vector<uint8_t>>& marks);
// A message read back; an Error where it is not one encode_marks made.
// `marks` points into `message`.
WindowMarks decode_marks(const std::vector<uint8_t>& message);

// The lines of `text` (the window `m` describes, `m.size` bytes, each line
// ended by `eol`) marked for rank `me`, copied in input order on the pool's
// threads into the room place(bytes) gives, or, where it gives none, into
// `spill`. Returns their bytes; *placed: whether they went to the room.
// An Error where the marks do not fit the text (other lines than the
// sender's).
uint64_t take_marked_lines(const uint8_t* text, const WindowMarks& m, uint8_t eol, int me, ThreadPool& pool,
                           const std::function<uint8_t*(uint64_t)>& place, HostBuffer& spill, bool* placed);

}  // namespace gsort
