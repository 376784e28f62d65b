// A write-behind thread over a fixed set of buffers. The producer fills the
// current buffer, submits it and gets the next one; a writer thread hands
// full buffers to the sink in order. A sink error is rethrown by the next
// submit() or finish().
//
//   WriteBehind w(sink, 16 << 20);
//   uint8_t* b = w.buffer();  fill up to w.capacity() bytes;  w.submit(n);
//   ...; w.finish();
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "io/output/block_target.h"
#include "src/core/host_buffer.h"

namespace gsort {

// The buffers a WriteBehind holds unless told otherwise: one being filled,
// one being written, one queued between them. The memory plan counts them.
constexpr unsigned kWriteBehindBuffers = 3;

class WriteBehind final : public BlockTarget {
 public:
  using Sink = std::function<void(const uint8_t* data, size_t bytes)>;

  WriteBehind(Sink sink, size_t buffer_bytes, unsigned buffers = kWriteBehindBuffers);
  // Over buffers of `buffer_bytes` that the caller owns and keeps until
  // this is gone (pinned ones, say); at least two.
  WriteBehind(Sink sink, size_t buffer_bytes, const std::vector<uint8_t*>& borrowed);
  ~WriteBehind() override;  // stops the thread; never throws (call finish() first)
  WriteBehind(const WriteBehind&) = delete;
  WriteBehind& operator=(const WriteBehind&) = delete;

  // The buffer to fill now.
  uint8_t* buffer() const override { return current_; }
  size_t capacity() const override { return capacity_; }
  // Queues the first `bytes` of buffer() and moves to a free buffer.
  void submit(size_t bytes) override;
  // Writes everything queued and stops the thread.
  void finish() override;

 private:
  void writer_loop();
  void rethrow_if_failed();

  Sink sink_;
  size_t capacity_;
  std::vector<HostBuffer> storage_;
  uint8_t* current_ = nullptr;

  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::pair<uint8_t*, size_t>> queue_;
  std::vector<uint8_t*> free_;
  bool in_flight_ = false;  // the writer is inside sink_
  bool closing_ = false;
  bool finished_ = false;
  std::exception_ptr error_;
  std::thread thread_;
};

}  // namespace gsort
