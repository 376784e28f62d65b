// A backend whose start-up (for the GPU: the CUDA context, the device's
// memory) runs on its own thread while the pipeline allocates its buffers
// and reads. Until it is ready, chunk buffers are plain pageable memory and
// chunk sessions only note how much has been read. For an input of known
// size the pool faults the buffers in when they are handed out (as the GPU
// backend's own pinned buffers are: page faults during the read cost more,
// measured in docs/benchmarks.md); for a stream, whose chunk buffer may stay
// mostly empty, they are faulted in by the copies of its stages
// (src/core/staged_stream.h) and stay pageable. The start ends by
// registering (pinning) each buffer of a known-size input with the backend,
// if it pins, whole, in one registration (a copy may not span two), while
// the reader goes on filling it. Anything that needs the backend itself (finish, sort_order, describe)
// waits for the start, and rethrows its error.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "src/chunk_sort/sort_backend.h"
#include "src/core/thread_pool.h"

namespace gsort {

class StartingBackend final : public SortBackend {
 public:
  using Start = std::function<std::unique_ptr<SortBackend>()>;
  // For an input whose size was not known: given the record count once it
  // is whole in one chunk, another backend to sort it (the CPU's, for auto
  // and a small stream), or null to keep the started one.
  using WholeInputChoice = std::function<std::unique_ptr<SortBackend>(uint64_t count)>;
  // Runs `start` on a new thread now, or, for a stream with a
  // WholeInputChoice, once the backend may be needed: when the choice
  // declines a stream's chunk, when a stream it took fills half of its
  // chunk or outgrows it, or when anything waits for the backend. A stream
  // that the choice sorts whole never starts the device. host_bytes_per_record:
  // the most that any backend `start` (or `whole_input`) may return needs
  // (the plan is made before it is). `pool` faults in the buffers handed
  // out before the start ends, when `size_known` (they will be filled).
  StartingBackend(Start start, uint64_t host_bytes_per_record, ThreadPool& pool, bool size_known,
                  WholeInputChoice whole_input = nullptr);
  // Waits for the start (it cannot be cancelled), then unregisters nothing
  // itself: buffers release their own registrations.
  ~StartingBackend() override;

  // Whether the start has ended (with a backend or an error); never blocks.
  bool ready() const { return ready_.load(std::memory_order_acquire); }
  // Whether the start has begun and not ended.
  bool start_pending() const;
  // Whether the WholeInputChoice's backend sorted the whole input, so that
  // the result needs nothing of the start (nor its error): describe,
  // timings and peak_device_bytes then answer without waiting.
  bool sorted_without_start() const { return whole_input_backend_ != nullptr; }
  // The started backend; waits, and rethrows the start's error.
  SortBackend& backend();
  // When the start began and ended, in process seconds (after ready()).
  double started_at() const { return started_at_; }
  double ended_at() const { return ended_at_; }

  std::string describe() const override;
  void sort_order(const uint8_t* records, uint64_t count, uint32_t* order) override;
  // Asks the WholeInputChoice, once, without waiting for the start.
  SortBackend& backend_for_whole_input(uint64_t count) override;
  void sort_order_in_parts(const uint8_t* records, uint64_t count, uint32_t* order,
                           const OrderProgress& ready) override;
  void merge_order(const uint8_t* records, const uint64_t* starts, size_t runs, uint32_t* order) override;
  std::unique_ptr<ChunkSortSession> begin_chunk(const uint8_t* records) override;
  // A stream's chunk, sorted as it arrives by what the WholeInputChoice
  // gives for a whole chunk (auto: the CPU), without waiting for the start;
  // that backend then sorted the input, unless the session is dropped
  // unfinished (the stream outgrew its chunk). Null where the choice
  // declines or its backend has no such session.
  std::unique_ptr<ChunkSortSession> begin_stream(const uint8_t* records, uint64_t capacity) override;
  HostBuffer allocate_host(size_t bytes) override;
  uint64_t host_bytes_per_record() const override { return host_bytes_per_record_; }
  BackendTimings timings() const override;
  uint64_t peak_device_bytes() const override;
  // Both wait for the start.
  uint64_t resident_capacity(uint64_t slot_bytes) override;
  std::unique_ptr<ResidentSort> hold_records(uint64_t count, uint64_t slot_bytes, std::string* why) override;
  std::unique_ptr<HostPin> pin_host(void* p, size_t bytes) override;

  // How many of the buffers allocate_host gave out before the start ended
  // were registered with the backend (valid once ready()).
  unsigned pinned_buffers() const { return pinned_buffers_; }

 private:
  struct LazyBuffer;
  class StreamSession;
  void run(const Start& start);
  void pin_lazy_buffers(SortBackend& backend);
  HostBuffer lazy_handle(const std::shared_ptr<LazyBuffer>& lazy, size_t bytes);
  void begin_start() const;  // once; any thread
  void wait() const;
  SortBackend& started() const;

  const uint64_t host_bytes_per_record_;
  ThreadPool& pool_;
  const bool fault_in_buffers_;
  const WholeInputChoice whole_input_choice_;
  std::unique_ptr<SortBackend> whole_input_backend_;  // what the choice made, if anything: it sorted the input
  mutable std::mutex mutex_;
  mutable std::condition_variable done_;
  std::atomic<bool> ready_{false};
  std::unique_ptr<SortBackend> backend_;
  std::exception_ptr error_;
  mutable double started_at_ = 0;
  double ended_at_ = 0;
  unsigned pinned_buffers_ = 0;
  bool ready_for_buffers_ = false;  // guarded by buffers_mutex_: no more lazy buffers
  std::mutex buffers_mutex_;  // guards buffers_; taken before a buffer's own
  std::vector<std::shared_ptr<LazyBuffer>> buffers_;
  Start start_;
  mutable bool begun_ = false;  // guarded by mutex_
  mutable std::thread thread_;  // last: starts once the members above exist
};

}  // namespace gsort
