// The local sort's buffers and backend, made on a thread of their own while
// the rank maps and classifies its slice and the exchange starts. Faulting
// in a partition's worth of fresh memory costs most of a second, pinning it
// for a GPU about half as much, and a GPU backend's start more; none needs
// the partition's exact size, only a bound, so none need wait for the
// counts. In order: the send buffer is faulted in and offered to the reader
// (send_room), which moves the other ranks' buckets there as soon as it has
// classified; then the receive buffer; once the exchange has started (and
// holds its device memory) and the counts are known, the parts of both that
// will be filled are pinned for the GPU the local sort will use (pinned, they also let the NCCL exchange copy at the link's speed
// rather than through the driver's pageable staging), and the backend
// starts, beside the trade.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>

#include "src/chunk_sort/sort_backend.h"
#include "src/config/sort_config.h"
#include "src/core/host_buffer.h"
#include "src/core/thread_pool.h"
#include "src/keys/key_layout.h"

namespace gsort {

class ReceivePreparation {
 public:
  // Starts at once with the host buffers. receive_records: a bound on the
  // records this rank will hold (its own included); send_records: a bound
  // on those it will send (0: no send buffer). config, layout and pool must
  // outlive it.
  ReceivePreparation(const SortConfig& rank_config, const KeyLayout& layout, ThreadPool& pool,
                     uint64_t receive_records, uint64_t send_records);
  ~ReceivePreparation();  // stops waiting, and waits for the thread
  ReceivePreparation(const ReceivePreparation&) = delete;
  ReceivePreparation& operator=(const ReceivePreparation&) = delete;

  // Waits until the send buffer is faulted in (not yet pinned) and returns
  // its memory where it has room for `records` records; else (or when the
  // preparation failed) null. Memory given out here is handed over by
  // take_send_buffer(records); until then this object owns it.
  uint8_t* send_room(uint64_t records);
  // Waits until the receive buffer is faulted in and returns its memory
  // where it has room for `records` records; else (or when the preparation
  // failed) null. Records may land there while it is being pinned; the
  // buffer is still handed over by take_receive_buffer after wait_for_buffers.
  uint8_t* receive_room(uint64_t records);
  // The exchange has taken its device memory, and the counts are known:
  // this rank sends `send_records` and holds `receive_records`. The
  // buffers' parts that those fill are pinned now, and then the backend,
  // which takes most of what is left on a GPU, starts.
  void exchange_started(uint64_t send_records, uint64_t receive_records);
  // The partition goes to files: the backend is not needed, nor pinning
  // where it has not begun.
  void skip_backend();
  // Waits until the buffers are ready for take_*_buffer (pinned, where the
  // backend pins), or the thread has ended; rethrows what it threw.
  void wait_for_buffers();
  // Waits for the thread (the backend); rethrows what it threw.
  void wait();
  // After wait(): the backend (null after skip_backend).
  std::unique_ptr<SortBackend> take_backend() { return std::move(backend_); }
  // After wait_for_buffers(): the buffer, where it has room for `records` records; else
  // empty. Pinned buffers unpin themselves when released.
  HostBuffer take_receive_buffer(uint64_t records) { return take(receive_, receive_capacity_, records); }
  HostBuffer take_send_buffer(uint64_t records) { return take(send_, send_capacity_, records); }

 private:
  void prepare(ThreadPool& pool);
  // Pins the first `records` records of `buffer` for the backend the local
  // sort will have, where that one pins; its release then unpins them.
  HostBuffer pinned(HostBuffer buffer, uint64_t records) const;
  HostBuffer take(HostBuffer& buffer, uint64_t capacity, uint64_t records);
  void send_settled(uint8_t* room);

  const SortConfig& config_;
  const KeyLayout& layout_;
  const unsigned threads_;
  const uint32_t record_size_;
  const uint64_t receive_capacity_, send_capacity_;
  std::unique_ptr<SortBackend> backend_;
  HostBuffer receive_, send_;  // the thread's until buffers_ready_ (or finished_)
  std::exception_ptr error_;
  std::mutex mutex_;
  std::condition_variable changed_;
  bool send_settled_ = false;  // guarded by mutex_, as are the two below
  uint8_t* receive_memory_ = nullptr;  // receive_'s memory once faulted in (pinning keeps it)
  uint8_t* send_room_ = nullptr;
  bool exchange_started_ = false, stopping_ = false, buffers_ready_ = false, finished_ = false;
  uint64_t pin_send_records_ = 0, pin_receive_records_ = 0;  // set with exchange_started_
  std::thread thread_;  // last: starts once the members above exist
};

}  // namespace gsort
