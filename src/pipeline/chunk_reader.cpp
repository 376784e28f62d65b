#include "src/pipeline/chunk_reader.h"

#include <algorithm>

#include "src/core/process_clock.h"
#include "src/core/test_hooks.h"

namespace gsort {

unsigned ChunkReader::readers_for(unsigned threads) { return std::clamp(threads / 4, 1u, 4u); }

ChunkReader::ChunkReader(InputSet& inputs, SortBackend& backend, uint64_t chunk_records, uint32_t record_size,
                         unsigned readers)
    : inputs_(inputs), backend_(backend), chunk_records_(chunk_records), rs_(record_size) {
  buffers_[0] = backend_.allocate_host(chunk_records_ * rs_);
  if (inputs_.size_known() && readers > 1) read_pool_ = std::make_unique<ThreadPool>(readers);
}

uint64_t ChunkReader::read_into(uint8_t* into, const char* thread, const std::function<void(uint64_t)>* arrived) {
  if (test_hooks::before_chunk_read) test_hooks::before_chunk_read(chunks_read_);
  ++chunks_read_;
  const double start = process_seconds();
  uint64_t n = 0;
  if (inputs_.size_known()) {
    n = inputs_.read(into, chunk_records_, read_pool_.get());
  } else {
    // A stream, through warm stages (staged_stream.h).
    if (!staged_) staged_ = std::make_unique<StagedStream>(rs_);
    n = staged_->read([this](uint8_t* to, uint64_t most) { return inputs_.read(to, most / rs_) * rs_; }, into,
                      chunk_records_ * rs_, arrived != nullptr ? *arrived : StagedStream::Arrived()) /
        rs_;
  }
  const double end = process_seconds();
  read_spans_.push_back(PhaseSpan{"read", thread, start, end});
  return n;
}

void ChunkReader::read_first(const std::function<void(uint64_t)>* arrived) {
  count_ = read_into(records(), "main", arrived);
}

void ChunkReader::read_ahead() {
  next_known_ = false;
  if (count_ != chunk_records_) return;
  HostBuffer& other = buffers_[current_ ^ 1];
  if (!other) other = backend_.allocate_host(chunk_records_ * rs_);
  uint8_t* into = other.data();
  next_ = std::async(std::launch::async, [this, into] { return read_into(into, "reader"); });
}

uint64_t ChunkReader::next_count() {
  if (!next_known_) {
    next_count_ = next_.valid() ? next_.get() : 0;
    next_known_ = true;
  }
  return next_count_;
}

bool ChunkReader::advance() {
  if (next_count() == 0) return false;
  current_ ^= 1;
  count_ = next_count_;
  return true;
}

void ChunkReader::release() {
  buffers_[0] = HostBuffer();
  buffers_[1] = HostBuffer();
}

bool ChunkReader::read_after_release() {
  if (count_ != chunk_records_) return false;
  current_ = 0;
  buffers_[0] = backend_.allocate_host(chunk_records_ * rs_);
  count_ = read_into(buffers_[0].data(), "main");
  return count_ > 0;
}

}  // namespace gsort
