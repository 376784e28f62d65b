#include "pipeline/run_merger.h"

#include <cstring>
#include <future>

#include "core/errors.h"
#include "core/host_buffer.h"
#include "sort/loser_tree.h"

namespace gsort {
namespace {

// One source's read buffers and its current head record. While the merge
// consumes one buffer, the next block is read into the other in the
// background (read-ahead), so merging and reading overlap.
struct Cursor {
  RecordSource* source = nullptr;
  HostBuffer buffer;
  HostBuffer spare;
  std::future<uint64_t> ahead;  // the read into `spare`, if one is under way
  uint64_t count = 0;     // records in the buffer
  uint64_t pos = 0;       // head's position in the buffer
  uint64_t consumed = 0;  // records taken from this source before the buffer
  uint64_t prefix = 0;    // head's key prefix
  const uint8_t* head = nullptr;
  std::vector<uint8_t> previous;  // last head, when verifying order
};

}  // namespace

uint64_t merge_sources(std::vector<std::unique_ptr<RecordSource>>& sources, const KeyLayout& layout,
                       const MergeOptions& options, RecordOutput& out) {
  const uint32_t rs = layout.record_size();
  const bool whole = layout.prefix_is_whole_key();
  std::vector<Cursor> cursors(sources.size());

  // Loads the next head of cursor c; false when the source is exhausted.
  const auto load_head = [&](Cursor& c) -> bool {
    if (c.pos == c.count) {
      c.consumed += c.count;
      if (c.ahead.valid()) {
        c.count = c.ahead.get();
        std::swap(c.buffer, c.spare);
      } else {
        c.count = c.source->read(c.buffer.data(), options.buffer_records);
      }
      c.pos = 0;
      if (c.count == 0) return false;
      if (c.count == options.buffer_records) {  // a full block: more may follow
        RecordSource* src = c.source;
        uint8_t* into = c.spare.data();
        const uint64_t n = options.buffer_records;
        c.ahead = std::async(std::launch::async, [src, into, n] { return src->read(into, n); });
      }
    }
    const uint8_t* next = c.buffer.data() + c.pos * rs;
    if (options.verify_sources_sorted) {
      if (c.head != nullptr && layout.compare(c.previous.data(), next) > 0) {
        throw DataError(c.source->name() + ": input to --merge is not sorted (record " +
                        std::to_string(c.consumed + c.pos + 1) + " sorts before the one above it)");
      }
      std::memcpy(c.previous.data(), next, rs);
    }
    c.head = next;
    c.prefix = layout.prefix(next);
    return true;
  };

  for (size_t i = 0; i < sources.size(); ++i) {
    Cursor& c = cursors[i];
    c.source = sources[i].get();
    c.buffer = HostBuffer::allocate_pageable(options.buffer_records * rs);
    c.spare = HostBuffer::allocate_pageable(options.buffer_records * rs);
    if (options.verify_sources_sorted) c.previous.resize(rs);
  }

  // Source i before source j: by key, then by source number (stability).
  const auto less = [&](size_t i, size_t j) {
    const Cursor& a = cursors[i];
    const Cursor& b = cursors[j];
    if (a.prefix != b.prefix) return a.prefix < b.prefix;
    if (!whole) {
      const int c = layout.compare_after_prefix(a.head, b.head);
      if (c != 0) return c < 0;
    }
    return i < j;
  };

  // Sources that are empty from the start never enter the tree.
  std::vector<size_t> slot_to_cursor;
  for (size_t i = 0; i < sources.size(); ++i) {
    if (load_head(cursors[i])) slot_to_cursor.push_back(i);
  }
  const auto slot_less = [&](size_t i, size_t j) { return less(slot_to_cursor[i], slot_to_cursor[j]); };
  LoserTree<decltype(slot_less)> tree(slot_to_cursor.size(), slot_less);

  uint64_t merged = 0;
  while (!tree.empty()) {
    Cursor& c = cursors[slot_to_cursor[tree.winner()]];
    out.append(c.head);
    ++merged;
    ++c.pos;
    tree.advance(load_head(c));
  }
  return merged;
}

}  // namespace gsort
