#include "src/verify/output_check.h"

#include <algorithm>
#include <cstring>

#include "io/file/checksum.h"
#include "src/verify/sorted_check.h"

namespace gsort {
namespace {

constexpr uint64_t kParallelBytes = 1 << 20;  // smaller blocks are checked by one thread

}  // namespace

OutputCheck::OutputCheck(const KeyLayout& layout, bool strictly_increasing, ThreadPool& pool)
    : layout_(layout),
      strict_(strictly_increasing),
      pool_(pool),
      rs_(layout.record_size()),
      last_(rs_),
      ledger_("record", strictly_increasing) {}

bool OutputCheck::in_order(const uint8_t* a, const uint8_t* b) const {
  const int c = layout_.compare(a, b);
  return strict_ ? c < 0 : c <= 0;
}

uint64_t OutputCheck::scan(const uint8_t* records, uint64_t begin, uint64_t end, uint64_t* sum) const {
  *sum = hash_record_sum(records + begin * rs_, end - begin, rs_);
  // Adjacent pairs (i-1, i) for i in [max(begin, 1), end): prefixes first,
  // the rest of the key only when they tie.
  uint64_t i = std::max<uint64_t>(begin, 1);
  if (i >= end) return end;
  const bool whole = layout_.prefix_is_whole_key();
  uint64_t prev = layout_.prefix(records + (i - 1) * rs_);
  for (; i < end; ++i) {
    const uint8_t* rec = records + i * rs_;
    const uint64_t p = layout_.prefix(rec);
    if (p < prev) return i;
    if (p == prev) {
      const int c = whole ? 0 : layout_.compare_after_prefix(rec - rs_, rec);
      if (out_of_order(c, strict_)) return i;
    }
    prev = p;
  }
  return end;
}

void OutputCheck::observe(const uint8_t* records, uint64_t count) {
  if (count == 0) return;
  const uint64_t before = ledger_.written_units();
  if (have_last_ && !in_order(last_.data(), records)) ledger_.throw_disorder(before + 1);
  const uint64_t parts = count * rs_ < kParallelBytes ? 1 : std::min<uint64_t>(pool_.size(), count);
  std::vector<uint64_t> bad(parts), sums(parts);
  const auto run = [&](size_t p) {
    const uint64_t b = split_point(count, parts, p), e = split_point(count, parts, p + 1);
    bad[p] = scan(records, b, e, &sums[p]);
    if (bad[p] == e) bad[p] = count;
  };
  if (parts == 1) {
    run(0);
  } else {
    pool_.parallel_for(parts, run);
  }
  const uint64_t first_bad = *std::min_element(bad.begin(), bad.end());
  if (first_bad < count) ledger_.throw_disorder(before + first_bad + 1);
  uint64_t sum = 0;
  for (uint64_t s : sums) sum += s;
  ledger_.written(count, sum);
  std::memcpy(last_.data(), records + (count - 1) * rs_, rs_);
  have_last_ = true;
}

void OutputCheck::dropped(const uint8_t* record) { ledger_.dropped(1, hash_record(record, rs_)); }

void OutputCheck::dropped_many(uint64_t records, uint64_t hash_sum) { ledger_.dropped(records, hash_sum); }

void OutputCheck::finish(uint64_t input_records, uint64_t input_hash_sum) {
  ledger_.input(input_records, input_hash_sum);
  ledger_.finish();
}

}  // namespace gsort
