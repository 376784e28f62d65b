// The local sort's buffers and backend, made on a thread of their own while
// the rank maps and classifies its slice and the exchange starts. Faulting
// in a partition's worth of fresh memory costs most of a second, a GPU
// backend's start as much again, and pinning the buffers for it more; none
// needs the partition's exact size, only a bound, so none need wait for the
// counts. Pinned send buffers also let the NCCL exchange copy to its GPU at
// the link's speed instead of through the driver's pageable staging.
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

  // The exchange has taken its device memory: the backend, which takes
  // most of what is left on a GPU, may start now.
  void exchange_started();
  // Waits for the thread; rethrows what it threw.
  void wait();
  // After wait(): the backend (pinned buffers must be released before it).
  std::unique_ptr<SortBackend> take_backend() { return std::move(backend_); }
  // After wait(): the buffer, where it has room for `records` records; else
  // empty.
  HostBuffer take_receive_buffer(uint64_t records) { return take(receive_, receive_capacity_, records); }
  HostBuffer take_send_buffer(uint64_t records) { return take(send_, send_capacity_, records); }

 private:
  void prepare(const SortConfig& rank_config, const KeyLayout& layout, ThreadPool& pool);
  // Registers `buffer` with the backend where it pins; its release then
  // unregisters it.
  HostBuffer pinned(HostBuffer buffer);
  HostBuffer take(HostBuffer& buffer, uint64_t capacity, uint64_t records);

  uint32_t record_size_;
  uint64_t receive_capacity_, send_capacity_;
  std::unique_ptr<SortBackend> backend_;
  HostBuffer receive_, send_;
  std::exception_ptr error_;
  std::mutex mutex_;
  std::condition_variable gate_;
  bool exchange_started_ = false, stopping_ = false;
  std::thread thread_;
};

}  // namespace gsort
