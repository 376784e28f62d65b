// Where an output stream's blocks go: the producer fills buffer() (up to
// capacity() bytes), hands the first n bytes over with submit(n), and gets
// the next buffer. Two kinds: WriteBehind (buffers written by a thread of
// their own, through a sink: a file, an encoder, a run) and MappedWindow
// (the blocks are the output itself, mapped; submitting writes nothing).
#pragma once

#include <cstddef>
#include <cstdint>

namespace gsort {

class BlockTarget {
 public:
  virtual ~BlockTarget() = default;
  virtual uint8_t* buffer() const = 0;
  virtual size_t capacity() const = 0;
  // The first `bytes` of buffer() are done; buffer() moves on.
  virtual void submit(size_t bytes) = 0;
  // Everything submitted has reached its place (rethrows a writer's error).
  virtual void finish() = 0;
  // Whether the blocks are the output itself, mapped: bytes written there
  // are in place, and their page-table entries may be dropped
  // (drop_written_pages) so that the unmap at the end has less to clear.
  virtual bool is_mapping() const { return false; }
};

}  // namespace gsort
