// The local sort's buffers and backend, made on a thread of their own while
// the rank maps and classifies its slice and the exchange starts. Faulting
// in a partition's worth of fresh memory costs most of a second, pinning it
// for a GPU about half as much, and a GPU backend's start more; none needs
// the partition's exact size, only a bound, so none need wait for the
// counts.
//
// Each state is a type, and each step consumes one and returns the next,
// so the steps cannot come out of order:
//
//   ReceivePreparation  faulting in the send buffer (offered to the reader
//                       by send_room, which moves the other ranks' buckets
//                       there as soon as it has classified), then the
//                       receive buffer
//     .exchange_started(send, receive) -> ReceivePinning
//     .for_files()                     -> PreparedBuffers (no pinning, no backend)
//   ReceivePinning      the exchange holds its device memory and the counts
//                       are known: the parts of both buffers that will be
//                       filled are pinned for the local sort's GPU (pinned,
//                       they also let NCCL copy at the link's speed), then
//                       the backend starts, beside the trade
//     .receive_room(n)  where records may land while it is pinned
//     .buffers()                       -> PreparedBuffers (once pinned)
//   PreparedBuffers     the buffers may be taken
//     .take_send_buffer(n), .take_receive_buffer(n)
//     .backend()                       -> the backend, once started; the rest is freed
//
// Letting any of them go stops the thread (where it still waits) and joins it.
#pragma once

#include <cstdint>
#include <memory>

#include "src/chunk_sort/sort_backend.h"
#include "src/config/sort_config.h"
#include "src/core/host_buffer.h"
#include "src/core/thread_pool.h"
#include "src/keys/key_layout.h"

namespace gsort {

class PreparationThread;  // receive_preparation.cpp

class PreparedBuffers {
 public:
  PreparedBuffers(PreparedBuffers&&) noexcept;
  PreparedBuffers& operator=(PreparedBuffers&&) noexcept;
  ~PreparedBuffers();

  // The buffer, where it has room for `records` records; else empty.
  // Pinned buffers unpin themselves when released.
  HostBuffer take_receive_buffer(uint64_t records);
  HostBuffer take_send_buffer(uint64_t records);
  // Waits for the thread and returns the backend (null after for_files);
  // rethrows what the thread threw. What was not taken is freed.
  std::unique_ptr<SortBackend> backend() &&;

 private:
  friend class ReceivePreparation;
  friend class ReceivePinning;
  explicit PreparedBuffers(std::unique_ptr<PreparationThread> thread);
  std::unique_ptr<PreparationThread> thread_;
};

class ReceivePinning {
 public:
  ReceivePinning(ReceivePinning&&) noexcept;
  ReceivePinning& operator=(ReceivePinning&&) noexcept;
  ~ReceivePinning();

  // Waits until the receive buffer is faulted in and returns its memory
  // where it has room for `records` records; else (or when the preparation
  // failed) null. Records may land there while it is being pinned; the
  // buffer itself is taken from the PreparedBuffers.
  uint8_t* receive_room(uint64_t records);
  // Waits until the buffers are pinned (where the backend pins), or the
  // thread has ended; rethrows what it threw.
  PreparedBuffers buffers() &&;

 private:
  friend class ReceivePreparation;
  explicit ReceivePinning(std::unique_ptr<PreparationThread> thread);
  std::unique_ptr<PreparationThread> thread_;
};

class ReceivePreparation {
 public:
  // Starts at once with the host buffers. receive_records: a bound on the
  // records this rank will hold (its own included); send_records: a bound
  // on those it will send (0: no send buffer). config, layout and pool must
  // outlive it.
  ReceivePreparation(const SortConfig& rank_config, const KeyLayout& layout, ThreadPool& pool,
                     uint64_t receive_records, uint64_t send_records);
  ReceivePreparation(ReceivePreparation&&) noexcept;
  ReceivePreparation& operator=(ReceivePreparation&&) noexcept;
  ~ReceivePreparation();

  // Waits until the send buffer is faulted in (not yet pinned) and returns
  // its memory where it has room for `records` records; else (or when the
  // preparation failed) null. Called from the thread that places the
  // sends; memory given out here is handed over by take_send_buffer.
  uint8_t* send_room(uint64_t records);
  // The counts are known and the exchange has taken its device memory:
  // the first `send_records` records of the send buffer and the first
  // `receive_records` of the receive buffer are pinned now (nothing of a
  // buffer too small for its records), then the backend starts.
  ReceivePinning exchange_started(uint64_t send_records, uint64_t receive_records) &&;
  // The partition goes to files: neither the backend nor pinning is
  // needed. Waits for the thread.
  PreparedBuffers for_files() &&;

 private:
  std::unique_ptr<PreparationThread> thread_;
};

}  // namespace gsort
