#include "src/chunk_sort/starting_backend.h"

#include <sys/mman.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "src/core/host_buffer.h"
#include "src/core/process_clock.h"

namespace gsort {
namespace {

constexpr uint64_t kPage = 4096;
// Threads that fault in a buffer's pages before it is registered: zeroing
// pages runs at a few GB/s per thread.
constexpr unsigned kPopulateThreads = 8;
constexpr uint64_t kPopulateMin = uint64_t{64} << 20;  // below this one thread does

uintptr_t round_up(uintptr_t v, uint64_t to) { return (v + to - 1) / to * to; }

// Faults in [p, p + bytes) for writing without changing a byte (the reader
// may be filling it), so that registering it pins present pages instead of
// zeroing them one by one. A pass over pages already present (allocate_host
// faulted them in) is cheap. Where the kernel lacks MADV_POPULATE_WRITE
// (before Linux 5.14), the registration faults them in itself.
void populate(uint8_t* p, uint64_t bytes) {
#ifdef MADV_POPULATE_WRITE
  const unsigned threads = bytes < kPopulateMin ? 1 : kPopulateThreads;
  const uint64_t part = round_up((bytes + threads - 1) / threads, kPage);
  std::vector<std::thread> workers;
  for (unsigned t = 1; t < threads && t * part < bytes; ++t) {
    workers.emplace_back([=] { populate_for_write(p + t * part, std::min(part, bytes - t * part)); });
  }
  populate_for_write(p, std::min(part, bytes));
  for (std::thread& w : workers) w.join();
#else
  (void)p;
  (void)bytes;
#endif
}

}  // namespace

// A buffer handed out before the backend was ready: pageable memory,
// registered whole at the end of the start.
struct StartingBackend::LazyBuffer {
  HostBuffer memory;
  std::unique_ptr<HostPin> pin;  // after `memory`: goes first
  std::mutex mutex;
  bool visited = false;  // the start has dealt with it

  // The registration takes the last page whole: the memory is page aligned
  // and its allocation ends on a page boundary (HostBuffer::allocate_pageable).
  uint64_t pinned_size() const { return round_up(memory.size(), kPage); }
};

StartingBackend::StartingBackend(Start start, uint64_t host_bytes_per_record, ThreadPool& pool, bool size_known,
                                 WholeInputChoice whole_input)
    : host_bytes_per_record_(host_bytes_per_record),
      pool_(pool),
      fault_in_buffers_(size_known),
      whole_input_choice_(std::move(whole_input)),
      start_(std::move(start)) {
  if (size_known || !whole_input_choice_) begin_start();
}

StartingBackend::~StartingBackend() {
  if (thread_.joinable()) thread_.join();
}

void StartingBackend::begin_start() const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (begun_) return;
  begun_ = true;
  started_at_ = process_seconds();
  auto* self = const_cast<StartingBackend*>(this);  // the start fills in the backend
  thread_ = std::thread([self] { self->run(self->start_); });
}

bool StartingBackend::start_pending() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return begun_ && !ready();
}

void StartingBackend::run(const Start& start) {
  std::unique_ptr<SortBackend> made;
  std::exception_ptr error;
  try {
    made = start();
  } catch (...) {
    error = std::current_exception();
  }
  if (made) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      backend_ = std::move(made);  // before any registration: releases unregister through it
    }
    pin_lazy_buffers(*backend_);
  }
  std::lock_guard<std::mutex> lock(mutex_);
  error_ = error;
  ended_at_ = process_seconds();
  ready_.store(true, std::memory_order_release);
  done_.notify_all();
}

void StartingBackend::pin_lazy_buffers(SortBackend& backend) {
  for (;;) {
    std::shared_ptr<LazyBuffer> next;
    {
      std::lock_guard<std::mutex> lock(buffers_mutex_);
      for (const auto& b : buffers_) {
        if (!b->visited) next = b;
      }
      // None left: buffers asked for from now on come from the backend
      // (allocate_host reads ready_for_buffers_ under this lock).
      if (!next) {
        ready_for_buffers_ = true;
        return;
      }
    }
    std::lock_guard<std::mutex> lock(next->mutex);
    next->visited = true;
    if (!next->memory || !backend.pins_host()) continue;  // released meanwhile, or nothing to pin for
    // A stream's buffer stays pageable: populating and pinning a mostly
    // empty multi-GB buffer beside the pipe's one reader slows that read
    // more than copying from pageable memory costs (docs/benchmarks.md).
    if (!fault_in_buffers_) continue;
    populate(next->memory.data(), next->pinned_size());
    next->pin = backend.pin_host(next->memory.data(), next->pinned_size());
    if (next->pin) ++pinned_buffers_;
  }
}

void StartingBackend::wait() const {
  begin_start();
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [&] { return ready_.load(std::memory_order_acquire); });
}

SortBackend& StartingBackend::started() const {
  wait();
  if (error_) std::rethrow_exception(error_);
  return *backend_;
}

SortBackend& StartingBackend::backend() { return started(); }

std::string StartingBackend::describe() const {
  return whole_input_backend_ ? whole_input_backend_->describe() : started().describe();
}

// The whole-input backend's session for a stream's chunk: finished, that
// backend sorted the input; dropped unfinished, it is given up, and the
// chunks that follow go to the started backend. A stream that fills half
// of its chunk may outgrow it: the device starts then, while the rest is
// read.
class StartingBackend::StreamSession final : public ChunkSortSession {
 public:
  StreamSession(StartingBackend& owner, std::unique_ptr<ChunkSortSession> inner, uint64_t capacity)
      : owner_(owner), inner_(std::move(inner)), start_at_(capacity / 2) {}
  ~StreamSession() override {
    inner_.reset();  // before the backend it sorts with
    if (!finished_) {
      owner_.whole_input_backend_.reset();
      owner_.begin_start();
    }
  }
  StreamSession(const StreamSession&) = delete;
  StreamSession& operator=(const StreamSession&) = delete;

  void records_ready(uint64_t available) override {
    if (available >= start_at_) owner_.begin_start();
    inner_->records_ready(available);
  }
  void finish(uint32_t* order) override {
    finished_ = true;
    inner_->finish(order);
  }
  void finish_in_parts(uint32_t* order, uint64_t count, const OrderProgress& ready) override {
    finished_ = true;
    inner_->finish_in_parts(order, count, ready);
  }

 private:
  StartingBackend& owner_;
  std::unique_ptr<ChunkSortSession> inner_;
  const uint64_t start_at_;  // records
  bool finished_ = false;
};

std::unique_ptr<ChunkSortSession> StartingBackend::begin_stream(const uint8_t* records, uint64_t capacity) {
  if (!whole_input_choice_ || whole_input_backend_) return nullptr;
  std::unique_ptr<SortBackend> chosen = whole_input_choice_(capacity);
  std::unique_ptr<ChunkSortSession> inner = chosen ? chosen->begin_stream(records, capacity) : nullptr;
  if (!inner) {
    begin_start();  // the chunk may be the started backend's
    return nullptr;
  }
  whole_input_backend_ = std::move(chosen);
  return std::make_unique<StreamSession>(*this, std::move(inner), capacity);
}

SortBackend& StartingBackend::backend_for_whole_input(uint64_t count) {
  // A start that already ended on a host backend (auto without a usable
  // GPU) needs no other.
  const bool ended_on_host = ready() && !error_ && !backend_->pins_host();
  if (whole_input_choice_ && !whole_input_backend_ && !ended_on_host) whole_input_backend_ = whole_input_choice_(count);
  return whole_input_backend_ ? *whole_input_backend_ : *this;
}

void StartingBackend::sort_order(const uint8_t* records, uint64_t count, uint32_t* order) {
  backend().sort_order(records, count, order);
}

void StartingBackend::sort_order_in_parts(const uint8_t* records, uint64_t count, uint32_t* order,
                                          const OrderProgress& ready) {
  backend().sort_order_in_parts(records, count, order, ready);
}

void StartingBackend::merge_order(const uint8_t* records, const uint64_t* starts, size_t runs, uint32_t* order) {
  backend().merge_order(records, starts, runs, order);
}

BackendTimings StartingBackend::timings() const {
  return whole_input_backend_ ? whole_input_backend_->timings() : started().timings();
}
uint64_t StartingBackend::peak_device_bytes() const {
  return whole_input_backend_ ? whole_input_backend_->peak_device_bytes() : started().peak_device_bytes();
}
uint64_t StartingBackend::resident_capacity(uint64_t slot_bytes) { return backend().resident_capacity(slot_bytes); }
std::unique_ptr<ResidentSort> StartingBackend::hold_records(uint64_t count, uint64_t slot_bytes, std::string* why) {
  return backend().hold_records(count, slot_bytes, why);
}
std::unique_ptr<HostPin> StartingBackend::pin_host(void* p, size_t bytes) { return backend().pin_host(p, bytes); }

HostBuffer StartingBackend::allocate_host(size_t bytes) {
  auto lazy = std::make_shared<LazyBuffer>();
  {
    std::lock_guard<std::mutex> lock(buffers_mutex_);
    if (!ready_for_buffers_) {
      lazy->memory = HostBuffer::allocate_pageable(bytes);
      buffers_.push_back(lazy);
    }
  }
  if (!lazy->memory) return backend().allocate_host(bytes);  // started: as the backend does it
  uint8_t* data = lazy->memory.data();
  if (!fault_in_buffers_) return lazy_handle(lazy, bytes);
  // Faulted in now, on all threads (nothing is in it yet): the start's own
  // pass over it then finds every page present.
  fault_in_pages(data, bytes, pool_);
  return lazy_handle(lazy, bytes);
}

HostBuffer StartingBackend::lazy_handle(const std::shared_ptr<LazyBuffer>& lazy, size_t bytes) {
  // The release undoes the registration, then frees the memory.
  return HostBuffer(lazy->memory.data(), bytes, [this, lazy](void*) {
    std::lock_guard<std::mutex> buffers_lock(buffers_mutex_);
    {
      std::lock_guard<std::mutex> lock(lazy->mutex);
      lazy->pin.reset();
      lazy->memory = HostBuffer();
    }
    buffers_.erase(std::find(buffers_.begin(), buffers_.end(), lazy));
  });
}

namespace {

// A chunk session that waits for the start without blocking the reader:
// records_ready only notes the count until the backend is there.
class StartingSession final : public ChunkSortSession {
 public:
  StartingSession(StartingBackend& owner, const uint8_t* records) : owner_(owner), records_(records) {}

  void records_ready(uint64_t available) override {
    available_ = available;
    if (!inner_) {
      if (!owner_.ready()) return;
      inner_ = owner_.backend().begin_chunk(records_);
    }
    inner_->records_ready(available);
  }

  void finish(uint32_t* order) override { started().finish(order); }
  void finish_in_parts(uint32_t* order, uint64_t count, const OrderProgress& ready) override {
    started().finish_in_parts(order, count, ready);
  }

 private:
  // The backend's own session, made now if the reader never saw it ready.
  ChunkSortSession& started() {
    if (!inner_) inner_ = owner_.backend().begin_chunk(records_);
    inner_->records_ready(available_);
    return *inner_;
  }

  StartingBackend& owner_;
  const uint8_t* records_;
  uint64_t available_ = 0;
  std::unique_ptr<ChunkSortSession> inner_;
};

}  // namespace

std::unique_ptr<ChunkSortSession> StartingBackend::begin_chunk(const uint8_t* records) {
  return std::make_unique<StartingSession>(*this, records);
}

}  // namespace gsort
