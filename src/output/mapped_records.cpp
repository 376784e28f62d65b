#include "src/output/mapped_records.h"

#include <algorithm>

#include "src/core/errors.h"
#include "src/core/test_hooks.h"

namespace gsort {
namespace {

// Blocks shown to the check: large enough for all its threads, as a
// mapped writer's blocks are.
constexpr uint64_t kCheckBlockBytes = uint64_t{64} << 20;

}  // namespace

void MappedRecords::dropped(uint64_t records, uint64_t hash_sum) {
  if (check_) check_->dropped_many(records, hash_sum);
}

void MappedRecords::finish(uint64_t records) {
  if (records * rs_ > bytes_) throw Error("internal error: the output outgrew the range reserved for it");
  const uint64_t block = std::max<uint64_t>(1, kCheckBlockBytes / rs_);
  for (uint64_t first = 0; first < records; first += block) {
    const uint64_t n = std::min(block, records - first);
    uint8_t* at = data_ + first * rs_;
    if (test_hooks::before_final_write) test_hooks::before_final_write(at, n, rs_, first);
    if (check_) check_->observe(at, n);
    if (written_) written_->fetch_add(n * rs_, std::memory_order_relaxed);
  }
  records_ = records;
}

}  // namespace gsort
