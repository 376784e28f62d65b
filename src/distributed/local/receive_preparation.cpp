#include "src/distributed/local/receive_preparation.h"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <new>
#include <thread>

#include "src/chunk_sort/backend_factory.h"
#include "src/distributed/local/local_sort.h"

namespace gsort {
namespace {

constexpr uint64_t kPage = 4096;

// A buffer of `bytes`, of which the first four fifths are faulted in: the
// capacities are a quarter above the mean partition, and zeroing pages that
// stay unused took pool time from the classify pass beside it. Pages past
// that fault in when written.
HostBuffer faulted_in(uint64_t bytes, ThreadPool& pool) {
  HostBuffer buffer = HostBuffer::allocate_pageable(std::max<uint64_t>(bytes, 1));
  fault_in_pages(buffer.data(), buffer.size() / 5 * 4, pool);
  return buffer;
}

}  // namespace

// The thread, and what it has made so far. Its progress is one stage,
// which only moves forward; the caller's word (pin, or stop) is another.
class PreparationThread {
 public:
  PreparationThread(const SortConfig& config, const KeyLayout& layout, ThreadPool& pool, uint64_t receive_records,
                    uint64_t send_records)
      : config_(config), layout_(layout), threads_(pool.size()), record_size_(layout.record_size()),
        receive_capacity_(receive_records), send_capacity_(send_records) {
    thread_ = std::thread([this, &pool] { run(pool); });
  }
  ~PreparationThread() {
    order(Order::kStop);
    if (thread_.joinable()) thread_.join();
  }
  PreparationThread(const PreparationThread&) = delete;
  PreparationThread& operator=(const PreparationThread&) = delete;

  uint8_t* send_room(uint64_t records) {
    if (records > send_capacity_) return nullptr;
    wait_for(Stage::kFaultingReceive);
    std::lock_guard<std::mutex> lock(mutex_);
    return send_room_;
  }
  uint8_t* receive_room(uint64_t records) {
    if (records > receive_capacity_) return nullptr;
    wait_for(Stage::kWaitingToPin);
    std::lock_guard<std::mutex> lock(mutex_);
    return receive_memory_;
  }
  void pin(uint64_t send_records, uint64_t receive_records) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      // A buffer too small for its records is not used: nothing of it pinned.
      pin_send_records_ = send_records <= send_capacity_ ? send_records : 0;
      pin_receive_records_ = receive_records <= receive_capacity_ ? receive_records : 0;
    }
    order(Order::kPin);
  }
  void stop() { order(Order::kStop); }
  // Until the buffers are pinned, or the thread has ended (then joined;
  // what it threw is rethrown).
  void wait_for_buffers() {
    if (wait_for(Stage::kPinned) == Stage::kFinished) join();
  }
  void join() {
    if (thread_.joinable()) thread_.join();
    if (error_) std::rethrow_exception(error_);
  }
  HostBuffer take_receive_buffer(uint64_t records) { return take(receive_, receive_capacity_, records); }
  HostBuffer take_send_buffer(uint64_t records) { return take(send_, send_capacity_, records); }
  std::unique_ptr<SortBackend> take_backend() { return std::move(backend_); }

 private:
  enum class Stage { kFaultingSend, kFaultingReceive, kWaitingToPin, kPinned, kFinished };
  enum class Order { kNone, kPin, kStop };

  void run(ThreadPool& pool) {
    try {
      prepare(pool);
    } catch (...) {
      error_ = std::current_exception();
    }
    advance(Stage::kFinished);
  }
  void prepare(ThreadPool& pool);
  // Pins the first `records` records of `buffer` for the backend the local
  // sort will have, where that one pins; its release then unpins them.
  HostBuffer pinned(HostBuffer buffer, uint64_t records) const;
  static HostBuffer take(HostBuffer& buffer, uint64_t capacity, uint64_t records) {
    if (!buffer || records > capacity) return HostBuffer();
    return std::move(buffer);
  }
  void advance(Stage stage) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stage_ = std::max(stage_, stage);
    }
    changed_.notify_all();
  }
  void order(Order order) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (order_ == Order::kNone || order == Order::kStop) order_ = order;
    }
    changed_.notify_all();
  }
  // Returns the stage reached, at least `stage`.
  Stage wait_for(Stage stage) {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return stage_ >= stage; });
    return stage_;
  }

  const SortConfig& config_;
  const KeyLayout& layout_;
  const unsigned threads_;
  const uint32_t record_size_;
  const uint64_t receive_capacity_, send_capacity_;
  // The thread's until it reaches kPinned (or kFinished).
  std::unique_ptr<SortBackend> backend_;
  HostBuffer receive_, send_;
  std::exception_ptr error_;
  std::mutex mutex_;
  std::condition_variable changed_;
  Stage stage_ = Stage::kFaultingSend;  // guarded by mutex_, as are the members below
  Order order_ = Order::kNone;
  uint8_t* send_room_ = nullptr;        // from kFaultingReceive: the send buffer's memory
  uint8_t* receive_memory_ = nullptr;   // from kWaitingToPin: the receive buffer's (pinning keeps it)
  uint64_t pin_send_records_ = 0, pin_receive_records_ = 0;  // set with Order::kPin
  std::thread thread_;  // last: starts once the members above exist
};

void PreparationThread::prepare(ThreadPool& pool) {
  if (send_capacity_) send_ = faulted_in(send_capacity_ * record_size_, pool);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    send_room_ = send_ ? send_.data() : nullptr;
  }
  advance(Stage::kFaultingReceive);
  receive_ = faulted_in(receive_capacity_ * record_size_, pool);
  {
    std::unique_lock<std::mutex> lock(mutex_);
    receive_memory_ = receive_.data();
    stage_ = Stage::kWaitingToPin;
    changed_.notify_all();
    changed_.wait(lock, [this] { return order_ != Order::kNone; });
    if (order_ == Order::kStop) return;
  }
  // Pinned only once the exchange has started: registering while NCCL
  // starts serialises the two in the driver (docs/benchmarks.md). The send
  // buffer first: the reader may be filling it still, which registration
  // does not disturb.
  if (send_) send_ = pinned(std::move(send_), pin_send_records_);
  receive_ = pinned(std::move(receive_), pin_receive_records_);
  advance(Stage::kPinned);
  backend_ = make_receive_backend(config_, layout_, pool, receive_capacity_);
}

HostBuffer PreparationThread::pinned(HostBuffer buffer, uint64_t records) const {
  const size_t bytes = buffer.size();
  // Only the records that will be there, in whole pages (the memory is page
  // aligned, and its allocation ends on a page boundary).
  const size_t pages = std::min<uint64_t>((records * record_size_ + kPage - 1) / kPage * kPage,
                                          (bytes + kPage - 1) / kPage * kPage);
  if (pages == 0) return buffer;
  // Nothing here may free the buffer: records may be landing in it already
  // (receive_room). So what could throw comes first, and a failure leaves
  // it unpinned, as a failed registration does.
  struct Pinned {
    HostBuffer memory;
    std::unique_ptr<HostPin> pin;  // after `memory`: goes first
  };
  uint8_t* data = buffer.data();
  std::shared_ptr<Pinned> held;
  HostBuffer::Release release;
  try {
    held = std::make_shared<Pinned>();
    release = [held](void*) mutable { held.reset(); };
    held->pin = pin_for_backend(config_, record_size_, threads_, receive_capacity_ * record_size_, data, pages);
  } catch (const std::bad_alloc&) {
    return buffer;
  }
  if (!held->pin) return buffer;
  held->memory = std::move(buffer);
  return HostBuffer(data, bytes, std::move(release));
}

ReceivePreparation::ReceivePreparation(const SortConfig& rank_config, const KeyLayout& layout, ThreadPool& pool,
                                       uint64_t receive_records, uint64_t send_records)
    : thread_(std::make_unique<PreparationThread>(rank_config, layout, pool, receive_records, send_records)) {}
ReceivePreparation::ReceivePreparation(ReceivePreparation&&) noexcept = default;
ReceivePreparation& ReceivePreparation::operator=(ReceivePreparation&&) noexcept = default;
ReceivePreparation::~ReceivePreparation() = default;

uint8_t* ReceivePreparation::send_room(uint64_t records) { return thread_->send_room(records); }

ReceivePinning ReceivePreparation::exchange_started(uint64_t send_records, uint64_t receive_records) && {
  thread_->pin(send_records, receive_records);
  return ReceivePinning(std::move(thread_));
}

PreparedBuffers ReceivePreparation::for_files() && {
  thread_->stop();
  thread_->join();
  return PreparedBuffers(std::move(thread_));
}

ReceivePinning::ReceivePinning(std::unique_ptr<PreparationThread> thread) : thread_(std::move(thread)) {}
ReceivePinning::ReceivePinning(ReceivePinning&&) noexcept = default;
ReceivePinning& ReceivePinning::operator=(ReceivePinning&&) noexcept = default;
ReceivePinning::~ReceivePinning() = default;

uint8_t* ReceivePinning::receive_room(uint64_t records) { return thread_->receive_room(records); }

PreparedBuffers ReceivePinning::buffers() && {
  thread_->wait_for_buffers();
  return PreparedBuffers(std::move(thread_));
}

PreparedBuffers::PreparedBuffers(std::unique_ptr<PreparationThread> thread) : thread_(std::move(thread)) {}
PreparedBuffers::PreparedBuffers(PreparedBuffers&&) noexcept = default;
PreparedBuffers& PreparedBuffers::operator=(PreparedBuffers&&) noexcept = default;
PreparedBuffers::~PreparedBuffers() = default;

HostBuffer PreparedBuffers::take_receive_buffer(uint64_t records) { return thread_->take_receive_buffer(records); }
HostBuffer PreparedBuffers::take_send_buffer(uint64_t records) { return thread_->take_send_buffer(records); }

std::unique_ptr<SortBackend> PreparedBuffers::backend() && {
  const std::unique_ptr<PreparationThread> thread = std::move(thread_);
  thread->join();
  return thread->take_backend();
}

}  // namespace gsort
