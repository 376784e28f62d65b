// A stream's chunk sorted in pieces as it arrives (src/chunk_sort/cpu/
// stream_piece_sort.h), judged by the independent reference: records
// arriving in pieces of every size, heavy duplicates and all-equal keys
// (stability across pieces), keys longer than the 8-byte prefix, -r, and
// 0, 1 and many records; each prefix of the order is reported in order,
// the last being the whole.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "src/chunk_sort/cpu/piece_merge.h"
#include "src/chunk_sort/cpu/stream_piece_sort.h"
#include "src/core/thread_pool.h"
#include "src/keys/key_layout.h"
#include "tests/support/layout_spec.h"
#include "tests/support/reference_sort.h"
#include "tests/support/rng.h"

namespace gsort {
namespace {

constexpr uint32_t kRs = 16;

// n records whose first 4 bytes take `distinct` values (little-endian),
// the rest random: equal keys abound where distinct is small.
std::string records(gsort_test::Rng& rng, uint64_t n, uint32_t distinct) {
  std::string data = rng.bytes(n * kRs);
  for (uint64_t i = 0; i < n; ++i) {
    const uint32_t key = static_cast<uint32_t>(rng.below(distinct));
    std::memcpy(&data[i * kRs], &key, sizeof key);
  }
  return data;
}

std::string gathered(const std::string& data, const std::vector<uint32_t>& order) {
  std::string out(data.size(), '\0');
  for (size_t i = 0; i < order.size(); ++i) std::memcpy(&out[i * kRs], &data[uint64_t{order[i]} * kRs], kRs);
  return out;
}

struct Sorted {
  std::vector<uint32_t> order;
  std::vector<uint64_t> reported;
  size_t pieces = 0;
};

// The records arrive in steps of 1 to `most_step` records, each once the
// pieces before it are sorted.
Sorted sort_as_it_arrives(ThreadPool& pool, const KeyLayout& layout, const std::string& data, uint64_t piece,
                          uint64_t most_step, gsort_test::Rng& rng) {
  const uint64_t n = data.size() / kRs;
  BackendTimings timings;
  StreamPieceSort session(layout, pool, reinterpret_cast<const uint8_t*>(data.data()), n + 3, piece, timings);
  for (uint64_t at = 0; at < n;) {
    at = std::min(n, at + rng.range(1, most_step));
    session.records_ready(at);
    session.wait_caught_up();
  }
  Sorted s;
  s.order.assign(n, 0);
  session.finish_in_parts(s.order.data(), n, [&](uint64_t prefix) { s.reported.push_back(prefix); });
  s.pieces = session.pieces();
  return s;
}

TEST(StreamPieceSort, MatchesTheReferenceHoweverTheRecordsArrive) {
  ThreadPool pool(4);
  const KeyLayout u32({parse_key_spec("0:u32")}, kRs, false);
  const KeyLayout longer({parse_key_spec("0:u32"), parse_key_spec("4:10")}, kRs, false);  // past the prefix
  const KeyLayout reversed({parse_key_spec("0:u32"), parse_key_spec("8:u64")}, kRs, true);
  gsort_test::Rng rng(81);
  for (const KeyLayout* layout : {&u32, &longer, &reversed}) {
    for (const uint64_t n : {uint64_t{0}, uint64_t{1}, uint64_t{2}, uint64_t{1000}, uint64_t{150000}}) {
      for (const uint32_t distinct : {1u, 7u, 1u << 30}) {
        for (const uint64_t piece : {uint64_t{1}, uint64_t{333}, uint64_t{70000}}) {
          if (piece == 1 && n > 1000) continue;  // a piece a record: quadratic in the merge's tree setup
          SCOPED_TRACE(std::to_string(n) + " records, " + std::to_string(distinct) + " keys, pieces of " +
                       std::to_string(piece));
          const std::string data = records(rng, n, distinct);
          const Sorted s = sort_as_it_arrives(pool, *layout, data, piece, 3 * piece + 5, rng);
          EXPECT_TRUE(gathered(data, s.order) == gsort_test::reference_sort(data, gsort_test::ref_spec_of(*layout)));
          ASSERT_FALSE(s.reported.empty());
          EXPECT_EQ(s.reported.back(), n);
          for (size_t i = 1; i < s.reported.size(); ++i) EXPECT_LT(s.reported[i - 1], s.reported[i]);
          if (n > 3 * piece + 5) EXPECT_GT(s.pieces, 1u);
        }
      }
    }
  }
}

// Dropped before its end (the stream outgrew its chunk): the sorting
// thread stops; nothing is left running.
TEST(StreamPieceSort, DroppedMidwayStopsItsThread) {
  ThreadPool pool(4);
  const KeyLayout u32({parse_key_spec("0:u32")}, kRs, false);
  gsort_test::Rng rng(82);
  const std::string data = records(rng, 100000, 50);
  BackendTimings timings;
  auto session = std::make_unique<StreamPieceSort>(u32, pool, reinterpret_cast<const uint8_t*>(data.data()), 100000,
                                                   1000, timings);
  session->records_ready(50000);
  session.reset();
  SUCCEED();
}

// The merge alone, over pieces cut by hand: one piece, many, empty input.
TEST(PieceMerge, MergesSortedPiecesStably) {
  ThreadPool pool(3);
  const KeyLayout u32({parse_key_spec("0:u32")}, kRs, false);
  gsort_test::Rng rng(83);
  for (const size_t k : {size_t{1}, size_t{2}, size_t{9}, size_t{64}}) {
    const uint64_t n = 40000;
    const std::string data = records(rng, n, 13);
    const uint8_t* r = reinterpret_cast<const uint8_t*>(data.data());
    // Each piece sorted stably by the reference's order.
    std::vector<uint64_t> bounds{0};
    for (size_t p = 1; p < k; ++p) bounds.push_back(n * p / k);
    bounds.push_back(n);
    std::vector<KeyEntry> entries(n);
    for (size_t p = 0; p < k; ++p) {
      std::vector<uint32_t> idx;
      for (uint64_t i = bounds[p]; i < bounds[p + 1]; ++i) idx.push_back(static_cast<uint32_t>(i));
      std::stable_sort(idx.begin(), idx.end(), [&](uint32_t a, uint32_t b) {
        uint32_t x, y;
        std::memcpy(&x, r + uint64_t{a} * kRs, 4);
        std::memcpy(&y, r + uint64_t{b} * kRs, 4);
        return x < y;
      });
      for (size_t j = 0; j < idx.size(); ++j) {
        entries[bounds[p] + j] = KeyEntry{u32.prefix(r + uint64_t{idx[j]} * kRs), idx[j]};
      }
    }
    std::vector<uint32_t> order(n);
    uint64_t last = 0;
    merge_sorted_pieces(pool, u32, r, entries.data(), bounds, order.data(), [&](uint64_t p) { last = p; });
    EXPECT_EQ(last, n);
    EXPECT_TRUE(gathered(data, order) == gsort_test::reference_sort(data, gsort_test::ref_spec_of(u32))) << k;
  }
}

}  // namespace
}  // namespace gsort
