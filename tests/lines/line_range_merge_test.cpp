// The lines' merge in ranges piece by piece (src/merge/line_range_cut.h,
// src/merge/range_worker.h with merge/line_unit.h), over runs in the host's memory: for 1 to 40 runs, ranges
// cut anywhere from 1 to 50, heavy duplicates, every line equal, one-line
// and empty runs, lines longer than the read buffer, -s and -r, laying the
// merged ranges end to end gives the sequential merge's bytes: the lines
// by the comparison, equal lines by run, then by place in the run.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "src/core/thread_pool.h"
#include "src/keys/line_compare.h"
#include "src/merge/held_runs.h"
#include "src/merge/line_range_cut.h"
#include "src/merge/line_unit.h"
#include "tests/support/rng.h"

namespace gsort {
namespace {

using gsort_test::Rng;

LineSpec spec_of(std::vector<std::string> keys, bool reverse, bool stable) {
  LineOptions o;
  o.keys = std::move(keys);
  o.stable = stable;
  return make_line_spec(o, reverse, false);
}

struct Line {
  std::string text;
  size_t run;
  size_t place;
};

// Each run's lines sorted stably; the reference is all lines sorted by
// (comparison, run, place).
struct Case {
  std::vector<std::string> runs;  // each run's bytes
  std::string expected;
};

Case make_case(const LineComparator& compare, const std::vector<std::vector<std::string>>& lines) {
  const auto before = [&compare](const Line& a, const Line& b) {
    const int c = compare.compare(reinterpret_cast<const uint8_t*>(a.text.data()), a.text.size(),
                                  reinterpret_cast<const uint8_t*>(b.text.data()), b.text.size());
    if (c != 0) return c < 0;
    return a.run != b.run ? a.run < b.run : a.place < b.place;
  };
  Case c;
  std::vector<Line> all;
  for (size_t r = 0; r < lines.size(); ++r) {
    std::vector<Line> run;
    for (size_t i = 0; i < lines[r].size(); ++i) run.push_back(Line{lines[r][i], r, i});
    std::stable_sort(run.begin(), run.end(), before);
    std::string bytes;
    for (size_t i = 0; i < run.size(); ++i) {
      run[i].place = i;
      bytes += run[i].text + "\n";
    }
    c.runs.push_back(bytes);
    all.insert(all.end(), run.begin(), run.end());
  }
  std::sort(all.begin(), all.end(), before);
  for (const Line& l : all) c.expected += l.text + "\n";
  return c;
}

std::string merged(const Case& c, const LineComparator& compare, size_t ranges, ThreadPool& pool) {
  std::vector<std::unique_ptr<MergeRun>> owned;
  std::vector<const MergeRun*> runs;
  for (const std::string& r : c.runs) {
    owned.push_back(merge_run_in_host(reinterpret_cast<const uint8_t*>(r.data()), r.size()));
    runs.push_back(owned.back().get());
  }
  const MergeRanges cut = cut_line_runs(runs, compare, '\n', ranges, pool);
  std::string out(c.expected.size(), '\0');
  RangeWorkerOptions options;
  options.buffer_bytes = 4096;
  LineRangeWorker merger(runs, LineUnit(compare, '\n'), options);
  for (size_t p = 0; p < cut.ranges(); ++p) {
    const uint64_t at = cut.records_before(p);
    const RangeResult r = merger.merge(cut.cuts[p], cut.cuts[p + 1], reinterpret_cast<uint8_t*>(&out[at]), nullptr);
    EXPECT_EQ(r.bytes, cut.records_before(p + 1) - at) << "range " << p;
    EXPECT_EQ(r.kept, static_cast<uint64_t>(std::count(out.begin() + static_cast<std::ptrdiff_t>(at),
                                                          out.begin() + static_cast<std::ptrdiff_t>(at + r.bytes), '\n')))
        << "range " << p;
  }
  return out;
}

std::vector<std::vector<std::string>> random_runs(Rng& rng, size_t runs, size_t most_lines, uint64_t distinct) {
  std::vector<std::vector<std::string>> lines(runs);
  for (auto& run : lines) {
    const size_t n = rng.below(most_lines + 1);
    for (size_t i = 0; i < n; ++i) {
      const uint64_t v = rng.below(distinct);
      std::string s = std::to_string(v % 7) + " " + std::to_string(v) + (rng.below(2) ? "a" : "b");
      if (rng.below(400) == 0) s += std::string(9000 + rng.below(3000), 'x');  // past the 4 KiB read buffer
      run.push_back(s);
    }
  }
  return lines;
}

TEST(LineRangeMerge, RangesEndToEndAreTheSequentialMerge) {
  ThreadPool pool(3);
  Rng rng(4040);
  const std::vector<LineSpec> specs = {spec_of({}, false, false), spec_of({}, true, false),
                                       spec_of({"1,1n"}, false, true), spec_of({"1,1n", "2,2r"}, false, false)};
  for (size_t k = 0; k < specs.size(); ++k) {
    const LineComparator compare(specs[k]);
    for (const size_t runs : {1, 2, 5, 40}) {
      for (const uint64_t distinct : {1, 3, 1000000}) {
        const Case c = make_case(compare, random_runs(rng, runs, 400, distinct));
        for (const size_t ranges : {1, 2, 7, 50}) {
          SCOPED_TRACE("spec " + std::to_string(k) + ", " + std::to_string(runs) + " runs, " + std::to_string(distinct) +
                       " distinct, " + std::to_string(ranges) + " ranges");
          EXPECT_TRUE(merged(c, compare, ranges, pool) == c.expected);
        }
      }
    }
  }
}

TEST(LineRangeMerge, EmptyAndOneLineRunsAndOneLineEverywhere) {
  ThreadPool pool(2);
  const LineComparator compare(spec_of({}, false, false));
  const std::vector<std::vector<std::vector<std::string>>> cases = {
      {{}, {"a"}, {}, {"a"}, {"a"}},
      {{"same", "same", "same"}, {"same"}, {"same", "same"}},
      {{""}, {"", ""}, {"b", ""}},
      {{"z"}, {}, {}},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    const Case c = make_case(compare, cases[i]);
    for (const size_t ranges : {1, 3, 9}) {
      SCOPED_TRACE("case " + std::to_string(i) + ", " + std::to_string(ranges) + " ranges");
      EXPECT_TRUE(merged(c, compare, ranges, pool) == c.expected);
    }
  }
}

TEST(LineRangeMerge, ProbesFindTheLineAtOrAfterAnOffset) {
  const std::string run = "ab\n\ncde\nf\n";
  const auto bytes = merge_run_in_host(reinterpret_cast<const uint8_t*>(run.data()), run.size());
  std::vector<uint8_t> line;
  const auto at = [&](uint64_t from) { return line_at_or_after(*bytes, from, '\n', line, nullptr); };
  EXPECT_EQ(at(0), 0u);
  EXPECT_EQ(std::string(line.begin(), line.end()), "ab");
  EXPECT_EQ(at(1), 3u);
  EXPECT_TRUE(line.empty());
  EXPECT_EQ(at(3), 3u);
  EXPECT_EQ(at(4), 4u);
  EXPECT_EQ(std::string(line.begin(), line.end()), "cde");
  EXPECT_EQ(at(5), 8u);
  EXPECT_EQ(std::string(line.begin(), line.end()), "f");
  EXPECT_EQ(at(9), run.size());
  EXPECT_EQ(at(10), run.size());
}

// Lines longer than one probe's read (4096 bytes), around short ones: every
// offset finds what a scan of the whole run finds.
TEST(LineRangeMerge, ProbesFindLinesLongerThanOneRead) {
  std::string run;
  for (const size_t length : {0, 5000, 1, 4095, 4096, 9000, 3, 4094, 0, 12000}) {
    run += std::string(length, static_cast<char>('a' + length % 26)) + "\n";
  }
  const auto bytes = merge_run_in_host(reinterpret_cast<const uint8_t*>(run.data()), run.size());
  std::vector<uint8_t> line;
  for (uint64_t from = 0; from <= run.size(); from += from < 20 ? 1 : 97) {
    SCOPED_TRACE("from " + std::to_string(from));
    const uint64_t expected = from == 0 ? 0 : std::min<uint64_t>(run.size(), run.find('\n', from - 1) + 1);
    ASSERT_EQ(line_at_or_after(*bytes, from, '\n', line, nullptr), expected);
    const std::string want = expected < run.size() ? run.substr(expected, run.find('\n', expected) - expected) : "";
    ASSERT_EQ(std::string(line.begin(), line.end()), want);
  }
}

}  // namespace
}  // namespace gsort
