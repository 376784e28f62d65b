// src/distributed/lines/slice_check: a rank's slice of lines checked where
// it lies, in windows and tasks, says what one thread reading it line by
// line says: the first disorder (its number, offset and the two lines),
// the lines, bytes and ends; the pairs across tasks and windows included,
// and a line too long is an error only before the first disorder.
#include "src/distributed/lines/slice_check.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "src/core/errors.h"
#include "src/distributed/lines/line_slice.h"
#include "src/keys/line_spec.h"
#include "tests/support/temp_dir.h"

namespace gsort {
namespace {

const uint8_t* bytes_of(const std::string& s) { return reinterpret_cast<const uint8_t*>(s.data()); }

// One thread, line by line, over the slice's text (every line terminated).
SliceCheck reference(const std::string& text, const LineComparator& compare) {
  SliceCheck r;
  r.bytes = text.size();
  std::string last;
  for (size_t at = 0; at < text.size();) {
    const size_t end = text.find('\n', at);
    const std::string line = text.substr(at, end - at);
    ++r.units;
    if (r.units == 1) r.first = line;
    if (r.units > 1 && r.local.sorted) {
      const int d = compare.compare(bytes_of(last), last.size(), bytes_of(line), line.size());
      if (d > 0 || (compare.spec().unique && d == 0)) {
        r.local.sorted = false;
        r.local.bad_record = r.units;
        r.local.bad_offset = at;
        r.local.previous_key.assign(last.begin(), last.end());
        r.local.bad_key.assign(line.begin(), line.end());
      }
    }
    last = line;
    at = end + 1;
  }
  r.last = last;
  return r;
}

void expect_same(const SliceCheck& got, const SliceCheck& want, const std::string& what) {
  EXPECT_EQ(got.local.sorted, want.local.sorted) << what;
  EXPECT_EQ(got.local.bad_record, want.local.bad_record) << what;
  EXPECT_EQ(got.local.bad_offset, want.local.bad_offset) << what;
  EXPECT_EQ(got.local.previous_key, want.local.previous_key) << what;
  EXPECT_EQ(got.local.bad_key, want.local.bad_key) << what;
  EXPECT_EQ(got.units, want.units) << what;
  EXPECT_EQ(got.bytes, want.bytes) << what;
  EXPECT_EQ(got.first, want.first) << what;
  EXPECT_EQ(got.last, want.last) << what;
}

// Checks every slice of `text` (in a file) for 1 and 3 ranks, in windows
// of several sizes, against the reference.
void check_all_ways(const std::string& text, bool unique) {
  gsort_test::TempDir dir;
  const std::string path = dir.path() + "/in";
  gsort_test::write_file(path, text);
  const ConcatenatedInputs inputs({path}, 1);
  const LineComparator compare(make_line_spec(LineOptions{}, false, unique));
  ThreadPool pool(3);
  const std::string whole = text.empty() || text.back() == '\n' ? text : text + "\n";
  for (const int ranks : {1, 3}) {
    for (int r = 0; r < ranks; ++r) {
      const RecordRange slice = rank_line_slice(inputs, '\n', r, ranks);
      // The slice's text as one process reads it (a terminator added at the input's end).
      const std::string mine = slice.end == text.size() ? whole.substr(slice.begin)
                                                        : whole.substr(slice.begin, slice.end - slice.begin);
      for (const uint64_t window : {uint64_t{1}, uint64_t{97}, uint64_t{40000}, uint64_t{64} << 20}) {
        if (window == 1 && text.size() > 20000) continue;  // a window a line: each pair across windows
        const SliceCheck got = check_line_slice_in_place(inputs, slice, compare, 1 << 20, pool, window);
        expect_same(got, reference(mine, compare),
                    "rank " + std::to_string(r) + " of " + std::to_string(ranks) + ", windows of " +
                        std::to_string(window));
      }
    }
  }
}

std::vector<std::string> sorted_numbers(int n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::string> lines;
  for (int i = 0; i < n; ++i) lines.push_back(std::to_string(rng() % 5000));
  std::sort(lines.begin(), lines.end());
  return lines;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& l : lines) text += l + "\n";
  return text;
}

TEST(LineSliceCheck, SortedSlicesHoldNoDisorder) {
  check_all_ways(joined(sorted_numbers(20000, 1)), false);
  check_all_ways("", false);
  check_all_ways("only\n", false);
}

TEST(LineSliceCheck, TheFirstDisorderWhereverItFalls) {
  const std::vector<std::string> lines = sorted_numbers(20000, 2);
  // At the second line, in the middle (several places, across tasks and
  // windows by chance), and at the last line; two disorders: the first wins.
  for (const size_t at : {size_t{1}, size_t{777}, size_t{9999}, size_t{10000}, size_t{13331}, lines.size() - 1}) {
    std::vector<std::string> bad = lines;
    bad[at] = "!";  // before every digit
    if (at + 500 < bad.size()) bad[at + 500] = "!";
    check_all_ways(joined(bad), false);
  }
}

TEST(LineSliceCheck, TheFirstDisorderAcrossWindows) {
  const std::vector<std::string> lines = sorted_numbers(1500, 4);
  for (const size_t at : {size_t{1}, size_t{500}, size_t{1001}, lines.size() - 1}) {
    std::vector<std::string> bad = lines;
    bad[at] = "!";
    check_all_ways(joined(bad), false);
  }
}

TEST(LineSliceCheck, UniqueTakesEqualLinesForDisorder) {
  check_all_ways(joined(sorted_numbers(20000, 3)), true);  // 20000 numbers below 5000 repeat
  check_all_ways(joined(sorted_numbers(1500, 5)), true);
  check_all_ways("a\nb\nc\n", true);
}

TEST(LineSliceCheck, AnUnterminatedLastLineCountsItsTerminator) {
  check_all_ways("a\nb\nc", false);
  check_all_ways("b\na", false);
}

TEST(LineSliceCheck, ALineTooLongIsAnErrorOnlyBeforeTheFirstDisorder) {
  gsort_test::TempDir dir;
  const LineComparator compare(make_line_spec(LineOptions{}, false, false));
  ThreadPool pool(2);
  const std::string long_line(5000, 'x');
  const auto check = [&](const std::string& text) {
    const std::string path = dir.path() + "/in";
    gsort_test::write_file(path, text);
    const ConcatenatedInputs inputs({path}, 1);
    return check_line_slice_in_place(inputs, RecordRange{0, text.size()}, compare, 1000, pool, 4096);
  };
  EXPECT_THROW(check("a\n" + long_line + "\nz\n"), DataError);
  const SliceCheck after = check("b\na\n" + long_line + "\n");
  EXPECT_FALSE(after.local.sorted);
  EXPECT_EQ(after.local.bad_record, 2u);
}

// -m's pieces: lines in order where they lie, the last perhaps without its
// terminator, equal lines in order unless -u.
TEST(LinesInOrder, SaysWhetherThePieceIsInOrder) {
  ThreadPool pool(3);
  const LineComparator order(make_line_spec(LineOptions{}, false, false));
  const LineComparator strictly(make_line_spec(LineOptions{}, false, true));
  const auto in_order = [&](const std::string& text, const LineComparator& c) {
    return lines_in_order(bytes_of(text), text.size(), c, pool);
  };
  const std::string sorted = joined(sorted_numbers(20000, 6));  // repeats: numbers below 5000
  EXPECT_TRUE(in_order(sorted, order));
  EXPECT_FALSE(in_order(sorted, strictly));
  EXPECT_TRUE(in_order(sorted + "9999", order));   // an unterminated last line in order
  EXPECT_FALSE(in_order(sorted + "0", order));     // and out of order
  EXPECT_TRUE(in_order("", order));
  EXPECT_TRUE(in_order("only", order));
  EXPECT_TRUE(in_order("a\na", order));
  EXPECT_FALSE(in_order("a\na", strictly));
  std::vector<std::string> lines = sorted_numbers(20000, 7);
  lines[15000] = "!";
  EXPECT_FALSE(in_order(joined(lines), order));
}

}  // namespace
}  // namespace gsort
