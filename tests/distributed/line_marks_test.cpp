// src/distributed/lines/line_marks: a window's marks, sent in place of its
// lines between ranks of one host, read back; each rank copies exactly the
// lines marked for it, in input order, and marks that do not fit the
// window's lines are an error, never a wrong copy.
#include "src/distributed/lines/line_marks.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "src/core/errors.h"
#include "src/distributed/lines/line_router.h"
#include "src/distributed/lines/window_router.h"
#include "src/keys/line_compare.h"
#include "src/keys/line_spec.h"

namespace gsort {
namespace {

const uint8_t* bytes_of(const std::string& s) { return reinterpret_cast<const uint8_t*>(s.data()); }

// The lines of `text` marked for `me`, through a message and back; `room`:
// whether the place gives room (else they go to the spill buffer).
std::string taken(const std::string& text, const std::vector<uint64_t>& begin,
                  const std::vector<std::vector<uint8_t>>& marks, int me, bool room, ThreadPool& pool) {
  const std::vector<uint8_t> message = encode_marks(7, 7 + text.size(), text.size(), begin, marks);
  const WindowMarks m = decode_marks(message);
  std::vector<uint8_t> into(text.size());
  HostBuffer spill;
  bool placed = false;
  const uint64_t bytes = take_marked_lines(
      bytes_of(text), m, '\n', me, pool, [&](uint64_t) { return room ? into.data() : nullptr; }, spill, &placed);
  EXPECT_EQ(placed, room && bytes > 0);
  const uint8_t* from = placed ? into.data() : spill.data();
  return std::string(reinterpret_cast<const char*>(from), bytes);
}

TEST(LineMarks, EachRankTakesItsMarkedLinesInOrder) {
  ThreadPool pool(3);
  const std::string text = "a\nbb\nccc\nd\ne\n";
  const std::vector<uint64_t> begin = {0, 5, 13};  // the last task holds no line
  const std::vector<std::vector<uint8_t>> marks = {{1, 0}, {1, 1, 0}, {}};
  EXPECT_EQ(taken(text, begin, marks, 1, true, pool), "a\nccc\nd\n");
  EXPECT_EQ(taken(text, begin, marks, 0, true, pool), "bb\ne\n");
  EXPECT_EQ(taken(text, begin, marks, 0, false, pool), "bb\ne\n");
  EXPECT_EQ(taken(text, begin, marks, 2, true, pool), "");
}

TEST(LineMarks, DecodeKeepsWhereTheWindowLies) {
  const std::vector<uint8_t> message = encode_marks(100, 130, 31, {0, 12}, {{1, 2}, {0}});
  const WindowMarks m = decode_marks(message);
  EXPECT_EQ(m.place, 100u);
  EXPECT_EQ(m.stop, 130u);
  EXPECT_EQ(m.size, 31u);
  EXPECT_EQ(m.task_begin, (std::vector<uint64_t>{0, 12, 31}));
  EXPECT_EQ(m.first_line, (std::vector<uint64_t>{0, 2, 3}));
  EXPECT_EQ(std::vector<uint8_t>(m.marks, m.marks + 3), (std::vector<uint8_t>{1, 2, 0}));
}

TEST(LineMarks, MarksThatDoNotFitTheLinesAreAnError) {
  ThreadPool pool(2);
  const std::string text = "a\nb\nc\n";
  // One mark short, one too many, and a task that ends mid-line.
  EXPECT_THROW(taken(text, {0}, {{0, 0}}, 0, true, pool), Error);
  EXPECT_THROW(taken(text, {0}, {{0, 0, 0, 0}}, 0, true, pool), Error);
  EXPECT_THROW(taken("a\nbc", {0}, {{0, 0}}, 0, true, pool), Error);
}

TEST(LineMarks, AMessageCutShortIsAnError) {
  std::vector<uint8_t> message = encode_marks(0, 4, 4, {0, 2}, {{0}, {1}});
  message.resize(20);
  EXPECT_THROW(decode_marks(message), Error);
  EXPECT_THROW(decode_marks({}), Error);
  // Tasks that leave the window's first bytes, or all of it, to nobody.
  EXPECT_THROW(decode_marks(encode_marks(0, 4, 4, {2}, {{0}})), Error);
  EXPECT_THROW(decode_marks(encode_marks(0, 4, 4, {}, {})), Error);
  EXPECT_NO_THROW(decode_marks(encode_marks(0, 0, 0, {}, {})));
}

TEST(LineMarks, RanksOfOneViewTradeMarks) {
  // Two hosts (or files under one name), two ranks each.
  const InputViews views({"host 0 file 1", "host 0 file 1", "host 1 file 1", "host 1 file 1"});
  EXPECT_EQ(ranks_sent_marks(views, 0, ExchangeChoice::kAuto), (std::vector<bool>{false, true, false, false}));
  EXPECT_EQ(ranks_sent_marks(views, 3, ExchangeChoice::kShm), (std::vector<bool>{false, false, true, false}));
  EXPECT_EQ(ranks_sent_marks(views, 1, ExchangeChoice::kMpi), std::vector<bool>(4, false));
  EXPECT_EQ(ranks_sent_marks(views, 1, ExchangeChoice::kNccl), std::vector<bool>(4, false));
  const InputViews one({"host 0 file 1", "host 0 file 1"});
  EXPECT_EQ(ranks_sent_marks(one, 1, ExchangeChoice::kAuto), (std::vector<bool>{true, false}));
  EXPECT_TRUE(any_ranks_trade_marks(views, ExchangeChoice::kAuto));
  EXPECT_FALSE(any_ranks_trade_marks(views, ExchangeChoice::kMpi));
  EXPECT_FALSE(any_ranks_trade_marks(InputViews({"host 0 file 1", "host 1 file 1"}), ExchangeChoice::kAuto));
}

// A router that marks rank 0 and copies rank 2's lines: rank 0, taking
// the lines marked for it from the window, gets the lines rank_of gives
// it; rank 2's bucket holds its own; the marking rank's own lines go to
// its own place, as without marks.
TEST(LineMarks, MarkedLinesAreTheRoutersRanges) {
  std::mt19937_64 rng(55);
  std::string text;
  for (int i = 0; i < 5000; ++i) text += std::to_string(rng() % 100000) + "\n";
  const LineComparator compare(make_line_spec(LineOptions{}, false, false));
  LineRouter router(compare, false);
  std::vector<LineSample> samples;
  for (int d = 0; d < 10; ++d) samples.push_back(LineSample{0, static_cast<uint64_t>(d), 1, std::to_string(d)});
  router.choose(samples, 10, 3);
  ThreadPool pool(4);
  const int me = 1;
  WindowRouter marking(router, '\n', 3, me, pool, {true, false, false});
  std::string own;
  marking.route(bytes_of(text), text.size(), 0, [&own](uint64_t bytes) {
    own.resize(bytes);
    return reinterpret_cast<uint8_t*>(own.data());
  });
  ASSERT_TRUE(marking.own_placed());
  std::vector<std::string> want(3);
  for (size_t at = 0; at < text.size();) {
    const size_t end = text.find('\n', at);
    want[static_cast<size_t>(router.rank_of(bytes_of(text) + at, end - at, at))] += text.substr(at, end - at + 1);
    at = end + 1;
  }
  ASSERT_FALSE(want[0].empty());
  ASSERT_FALSE(want[2].empty());
  EXPECT_EQ(own, want[me]);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(marking.bucket(2)), marking.bucket_bytes(2)), want[2]);
  for (int r = 0; r < 3; ++r) {
    EXPECT_EQ(taken(text, marking.task_begin(), marking.marks(), r, true, pool), want[static_cast<size_t>(r)]) << r;
  }
}

}  // namespace
}  // namespace gsort
