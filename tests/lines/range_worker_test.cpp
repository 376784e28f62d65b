// The worker of every final merge in ranges (src/merge/range_worker.h) over
// both of its units, records (src/merge/record_unit.h) and lines
// (src/merge/line_unit.h), with runs in the host's memory: the same
// template merges 1 to 12 runs of few distinct keys into the stable
// order, drops with -u every unit whose key equals the last kept one's,
// sums the dropped units' hashes for --verify, and counts what it wrote.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "io/file/checksum.h"
#include "src/keys/key_layout.h"
#include "src/keys/line_compare.h"
#include "src/keys/line_spec.h"
#include "src/merge/line_unit.h"
#include "src/merge/merge_run.h"
#include "src/merge/record_unit.h"
#include "src/verify/line_ledger.h"
#include "tests/support/rng.h"

namespace gsort {
namespace {

using gsort_test::Rng;

constexpr uint32_t kRs = 12;

// One unit of a case: its bytes, and the run and place it came from.
struct Unit {
  std::string bytes;
  size_t run = 0, place = 0;
};

// Runs of units, each sorted stably by `before`; the expected merge is all
// units sorted by (before, run, place), and under -u the first of each key.
template <typename Before>
struct Case {
  std::vector<std::string> runs;
  std::vector<Unit> order;
  Case(std::vector<std::vector<std::string>> units, Before before) {
    for (size_t r = 0; r < units.size(); ++r) {
      std::stable_sort(units[r].begin(), units[r].end(), before);
      std::string run;
      for (size_t i = 0; i < units[r].size(); ++i) {
        run += units[r][i];
        order.push_back(Unit{units[r][i], r, i});
      }
      runs.push_back(run);
    }
    std::stable_sort(order.begin(), order.end(), [&](const Unit& a, const Unit& b) { return before(a.bytes, b.bytes); });
  }
  std::string expected(bool unique, Before before, uint64_t* dropped) const {
    std::string out;
    const std::string* last = nullptr;
    for (const Unit& u : order) {
      if (unique && last && !before(*last, u.bytes) && !before(u.bytes, *last)) {
        ++*dropped;
        continue;
      }
      out += u.bytes;
      last = &u.bytes;
    }
    return out;
  }
};

// Every unit of the runs merged by one worker in one range.
template <typename UnitPolicy>
std::string merged(const std::vector<std::string>& runs, uint32_t unit_bytes, const UnitPolicy& unit, bool unique,
                   RangeResult* result) {
  std::vector<std::unique_ptr<MergeRun>> owned;
  std::vector<const MergeRun*> views;
  std::vector<uint64_t> begin, end;
  uint64_t total = 0;
  for (const std::string& r : runs) {
    owned.push_back(merge_run_in_host(reinterpret_cast<const uint8_t*>(r.data()), r.size() / unit_bytes, unit_bytes));
    views.push_back(owned.back().get());
    begin.push_back(0);
    end.push_back(r.size() / unit_bytes);
    total += r.size();
  }
  RangeWorkerOptions options;
  options.buffer_bytes = 4096;
  options.unique = unique;
  options.sum_dropped = unique;
  RangeWorker<UnitPolicy> worker(views, unit, options);
  std::string out(total, '\0');
  *result = worker.merge(begin, end, reinterpret_cast<uint8_t*>(&out[0]), nullptr);
  out.resize(result->bytes);
  return out;
}

TEST(RangeWorker, RecordsInTheStableOrderAndUnderU) {
  const KeyLayout layout({parse_key_spec("0:u32")}, kRs, false);
  const auto before = [&layout](const std::string& a, const std::string& b) {
    return layout.compare(reinterpret_cast<const uint8_t*>(a.data()), reinterpret_cast<const uint8_t*>(b.data())) < 0;
  };
  Rng rng(11);
  for (size_t runs : {1, 2, 5, 12}) {
    std::vector<std::vector<std::string>> units(runs);
    for (auto& run : units) {
      for (uint64_t i = rng.below(400); i > 0; --i) {
        std::string rec = rng.bytes(kRs);
        const uint32_t key = static_cast<uint32_t>(rng.below(9));
        std::memcpy(&rec[0], &key, 4);
        run.push_back(rec);
      }
    }
    const Case<decltype(before)> c(units, before);
    for (bool unique : {false, true}) {
      uint64_t dropped = 0;
      const std::string expected = c.expected(unique, before, &dropped);
      RangeResult r;
      EXPECT_EQ(merged(c.runs, kRs, RecordUnit(layout), unique, &r), expected) << runs << " runs, -u " << unique;
      EXPECT_EQ(r.kept, expected.size() / kRs);
      EXPECT_EQ(r.dropped, unique ? dropped : 0);
    }
  }
}

TEST(RangeWorker, LinesInTheStableOrderAndUnderU) {
  LineOptions o;
  o.keys = {"1,1n"};
  o.stable = true;
  const LineSpec spec = make_line_spec(o, false, false);
  const LineComparator compare(spec);
  const auto before = [&compare](const std::string& a, const std::string& b) {
    return compare.compare(reinterpret_cast<const uint8_t*>(a.data()), a.size() - 1,
                           reinterpret_cast<const uint8_t*>(b.data()), b.size() - 1) < 0;
  };
  Rng rng(12);
  for (size_t runs : {1, 2, 5, 12}) {
    std::vector<std::vector<std::string>> units(runs);
    for (auto& run : units) {
      for (uint64_t i = rng.below(400); i > 0; --i) {
        std::string line = std::to_string(rng.below(9)) + " " + std::to_string(rng.below(1000));
        if (rng.below(50) == 0) line += std::string(5000, 'y');  // past the 4 KiB read buffer
        run.push_back(line + "\n");
      }
    }
    const Case<decltype(before)> c(units, before);
    for (bool unique : {false, true}) {
      uint64_t dropped = 0;
      const std::string expected = c.expected(unique, before, &dropped);
      RangeResult r;
      EXPECT_EQ(merged(c.runs, 1, LineUnit(compare, '\n'), unique, &r), expected) << runs << " runs, -u " << unique;
      EXPECT_EQ(r.kept, static_cast<uint64_t>(std::count(expected.begin(), expected.end(), '\n')));
      EXPECT_EQ(r.dropped, unique ? dropped : 0);
    }
  }
}

TEST(RangeWorker, DroppedUnitsHashesAreSummed) {
  const KeyLayout layout({parse_key_spec("0:u32")}, kRs, false);
  std::string run(3 * kRs, 'a');  // three records of one key: two dropped
  run[kRs + 5] = 'b';
  run[2 * kRs + 5] = 'c';
  RangeResult r;
  merged({run}, kRs, RecordUnit(layout), true, &r);
  EXPECT_EQ(r.dropped, 2u);
  EXPECT_EQ(r.dropped_hash_sum, hash_record(&run[kRs], kRs) + hash_record(&run[2 * kRs], kRs));
  LineOptions o;
  o.keys = {"1,1"};
  const LineSpec spec = make_line_spec(o, false, true);  // -u: no last resort
  const LineComparator compare(spec);
  const std::string lines = "k 1\nk 2\n";
  merged({lines}, 1, LineUnit(compare, '\n'), true, &r);
  EXPECT_EQ(r.dropped, 1u);
  EXPECT_EQ(r.dropped_hash_sum, hash_line(reinterpret_cast<const uint8_t*>("k 2"), 3));
}

}  // namespace
}  // namespace gsort
