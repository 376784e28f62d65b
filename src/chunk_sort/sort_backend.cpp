#include "src/chunk_sort/sort_backend.h"

namespace gsort {
namespace {

// Waits for the whole chunk, then sorts it in one call.
class WholeChunkSession final : public ChunkSortSession {
 public:
  WholeChunkSession(SortBackend& backend, const uint8_t* records) : backend_(backend), records_(records) {}
  void records_ready(uint64_t available) override { count_ = available; }
  void finish(uint32_t* order) override { backend_.sort_order(records_, count_, order); }
  void finish_in_parts(uint32_t* order, uint64_t count, const OrderProgress& ready) override {
    backend_.sort_order_in_parts(records_, count, order, ready);
  }

 private:
  SortBackend& backend_;
  const uint8_t* records_;
  uint64_t count_ = 0;
};

}  // namespace

std::unique_ptr<ChunkSortSession> SortBackend::begin_chunk(const uint8_t* records) {
  return std::make_unique<WholeChunkSession>(*this, records);
}

}  // namespace gsort
