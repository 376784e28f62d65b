#include "src/distributed/exchange/landing.h"

#include <algorithm>
#include <utility>

#include "src/core/errors.h"
#include "src/core/stopwatch.h"
#include "src/distributed/exchange/receive_sinks.h"
#include "src/distributed/local/local_sort.h"

namespace gsort {
namespace {

class LandingInFiles final : public Landing {
 public:
  LandingInFiles(RankContext& rank, const LandingCounts& counts, uint64_t round_records)
      : rank_(rank), counts_(counts),
        files_(std::make_unique<ReceivedFiles>(rank.config.temp_dir, rank.group.size, rank.config.record_size)),
        sink_(*files_, rank.group.size, rank.config.record_size, round_records),
        own_records_(HostBuffer::allocate_pageable(std::max<uint64_t>(counts.own, 1) * rank.config.record_size)) {}

  ReceiveSink& sink() override { return sink_; }
  uint8_t* own_place() override { return own_records_.data(); }
  void settle(RankStats&) override {
    sink_.keep_own(rank_.group.rank, own_records_.data(), counts_.own);
    files_->finish();
  }
  ReceivedRecords received() && override { return ReceivedRecords{counts_.incoming, ReceivedInFiles{std::move(files_)}}; }

 private:
  RankContext& rank_;
  const LandingCounts counts_;
  std::unique_ptr<ReceivedFiles> files_;
  FileSink sink_;
  HostBuffer own_records_;  // the own bucket, written to its file after the trade
};

// Records land in the local sort's buffer, each source's after the one
// before (MemorySink), the own bucket at its place among them.
class LandingInMemory : public Landing {
 public:
  LandingInMemory(RankContext& rank, const LandingCounts& counts, uint8_t* records)
      : rank_(rank), counts_(counts), sink_(records, counts.from_each, rank.config.record_size),
        own_place_(sink_.place(rank.group.rank, counts.own)) {}

  ReceiveSink& sink() override { return sink_; }
  uint8_t* own_place() override { return own_place_; }
  void settle(RankStats& stats) override {
    take_buffer_and_backend(stats);
    sink_.landed(rank_.group.rank, counts_.own);
  }
  ReceivedRecords received() && override {
    return ReceivedRecords{counts_.incoming, ReceivedInMemory{std::move(backend_), std::move(buffer_)}};
  }

 protected:
  // Puts the buffer and the backend in hand; the wait for what is still
  // prepared counts as allocating.
  virtual void take_buffer_and_backend(RankStats& stats) = 0;

  RankContext& rank_;
  const LandingCounts counts_;
  std::unique_ptr<SortBackend> backend_;
  HostBuffer buffer_;  // after `backend_`: released first (it may be the backend's)

 private:
  MemorySink sink_;
  uint8_t* own_place_;
};

class LandingInBuffer final : public LandingInMemory {
 public:
  // A buffer whose backend is in hand already.
  LandingInBuffer(RankContext& rank, const LandingCounts& counts, HostBuffer buffer,
                  std::unique_ptr<SortBackend> backend)
      : LandingInMemory(rank, counts, buffer.data()) {
    backend_ = std::move(backend);
    buffer_ = std::move(buffer);
  }
  // A prepared buffer whose backend is still starting.
  LandingInBuffer(RankContext& rank, const LandingCounts& counts, HostBuffer buffer, PreparedBuffers starting)
      : LandingInMemory(rank, counts, buffer.data()), starting_(std::move(starting)) {
    buffer_ = std::move(buffer);
  }

 private:
  void take_buffer_and_backend(RankStats& stats) override {
    if (!starting_) return;
    const Stopwatch starting_backend;
    backend_ = std::move(*starting_).backend();
    starting_.reset();
    stats.allocate_s += starting_backend.seconds();
  }

  std::optional<PreparedBuffers> starting_;  // the preparation, until its backend is taken
};

class LandingWhilePinning final : public LandingInMemory {
 public:
  LandingWhilePinning(RankContext& rank, const LandingCounts& counts, uint8_t* room, ReceivePinning pinning)
      : LandingInMemory(rank, counts, room), room_(room), pinning_(std::move(pinning)) {}

 private:
  void take_buffer_and_backend(RankStats& stats) override {
    const Stopwatch starting_backend;
    // The send buffer, still the preparation's, goes with it.
    PreparedBuffers ready = std::move(pinning_).buffers();
    buffer_ = ready.take_receive_buffer(counts_.incoming);
    if (buffer_.data() != room_) throw Error("internal error: the receive buffer moved");
    backend_ = std::move(ready).backend();
    stats.allocate_s += starting_backend.seconds();
  }

  uint8_t* room_;
  ReceivePinning pinning_;
};

}  // namespace

std::unique_ptr<Landing> choose_landing(RankContext& rank, const LandingCounts& counts, bool in_memory, bool pin_first,
                                        std::optional<ReceivePreparation> preparation, HostBuffer* send_buffer,
                                        uint64_t round_records) {
  if (!in_memory) {
    if (preparation) {
      PreparedBuffers ready = std::move(*preparation).for_files();
      // The send buckets lie in its buffer where they own none: take it before it goes.
      if (!*send_buffer) *send_buffer = ready.take_send_buffer(counts.send);
      (void)std::move(ready).backend();  // none: the rest is freed
    }
    return std::make_unique<LandingInFiles>(rank, counts, round_records);
  }
  std::unique_ptr<SortBackend> backend;
  if (preparation) {
    ReceivePinning pinning = std::move(*preparation).exchange_started(pin_first ? counts.send : 0, counts.incoming);
    if (!pin_first) {
      if (uint8_t* room = pinning.receive_room(counts.incoming)) {
        return std::make_unique<LandingWhilePinning>(rank, counts, room, std::move(pinning));
      }
    }
    PreparedBuffers ready = std::move(pinning).buffers();
    if (!*send_buffer) *send_buffer = ready.take_send_buffer(counts.send);
    // Kept where the backend still starts (beside the trade) and the buffer fits.
    if (HostBuffer buffer = ready.take_receive_buffer(counts.incoming)) {
      return std::make_unique<LandingInBuffer>(rank, counts, std::move(buffer), std::move(ready));
    }
    backend = std::move(ready).backend();
  }
  if (!backend) backend = make_receive_backend(rank.config, rank.layout, rank.pool, counts.incoming);
  HostBuffer buffer = backend->allocate_host(std::max<uint64_t>(counts.incoming, 1) * rank.config.record_size);
  return std::make_unique<LandingInBuffer>(rank, counts, std::move(buffer), std::move(backend));
}

}  // namespace gsort
