// A stream of lines sorted in pieces while it arrives (issue 38,
// src/lines/arriving_pieces.h), then merged from where the pieces lie.
// The class itself: its pieces end at terminators, cover the chunk, and
// each holds its lines sorted as the chunk's sorter sorts them; a chunk
// that ends before any piece began is left to the usual sort. Through
// gsort-test-hooks, pieces forced small (GSORT_TEST_LINE_PIECE_BYTES): a
// pipe gives GNU sort's bytes for random option mixes and data (-V where
// /usr/bin/sort orders as gsort does: gnu_diff.h), with the
// final merge in ranges and in batches, for heavy duplicates, one line
// repeated, -u, --verify, -z, a last line without its terminator, lines
// longer than a piece and a pipe written a few bytes at a time; a pipe
// that outgrows its chunk drops the pieces and spills, and a line too long
// for -S is still the usual one-line error.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <vector>

#include "src/core/thread_pool.h"
#include "src/keys/line_compare.h"
#include "src/keys/line_spec.h"
#include "src/lines/arriving_pieces.h"
#include "src/lines/sort_arriving.h"
#include "tests/lines/gnu_diff.h"
#include "tests/support/line_gen.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gsort_test {
namespace {

using gsort::ArrivingLinePieces;

bool contains(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

// The lines of text, each with its terminator.
std::vector<std::string> split_lines(const std::string& text, char eol) {
  std::vector<std::string> lines;
  for (size_t at = 0; at < text.size();) {
    const size_t end = text.find(eol, at);
    lines.push_back(text.substr(at, end - at + 1));
    at = end + 1;
  }
  return lines;
}

struct PieceRun {
  bool taken = false;
  std::vector<uint64_t> bounds;
  std::string sorted;
};

// Feeds `text` to the pieces in arrivals of `step` bytes, then ends it.
PieceRun run_pieces(const std::string& text, uint64_t least_piece, uint64_t step, bool cut_after_end,
                    const gsort::LineSpec& spec) {
  gsort::ThreadPool pool(3);
  std::unique_ptr<gsort::LineSorter> sorter = gsort::make_cpu_line_sorter(spec, pool);
  PieceRun run;
  run.sorted.assign(text.size(), '?');
  ArrivingLinePieces pieces(*sorter, pool, '\n', reinterpret_cast<const uint8_t*>(text.data()),
                            reinterpret_cast<uint8_t*>(run.sorted.data()), least_piece, 1000, false, cut_after_end);
  for (uint64_t at = step; at < text.size(); at += step) pieces.arrived(at);
  run.taken = pieces.finish(text.size());
  run.bounds = pieces.bounds();
  return run;
}

TEST(LineArrivingPieces, PiecesEndAtTerminatorsAndHoldTheirLinesSorted) {
  Rng rng(4101);
  std::string text;
  for (int i = 0; i < 20000; ++i) text += random_line_field(rng, false) + "\n";
  const gsort::LineSpec spec = gsort::make_line_spec(gsort::LineOptions{}, false, false);
  const gsort::LineComparator compare(spec);
  const PieceRun run = run_pieces(text, 4000, 777, true, spec);
  ASSERT_TRUE(run.taken);
  ASSERT_GT(run.bounds.size(), 3u);
  EXPECT_EQ(run.bounds.front(), 0u);
  EXPECT_EQ(run.bounds.back(), text.size());
  for (size_t p = 0; p + 1 < run.bounds.size(); ++p) {
    const uint64_t begin = run.bounds[p], end = run.bounds[p + 1];
    ASSERT_LT(begin, end);
    ASSERT_EQ(text[end - 1], '\n') << "piece " << p << " ends inside a line";
    // At most 1000 lines a piece (most_piece_lines).
    std::vector<std::string> lines = split_lines(text.substr(begin, end - begin), '\n');
    EXPECT_LE(lines.size(), 1000u);
    std::stable_sort(lines.begin(), lines.end(), [&compare](const std::string& a, const std::string& b) {
      return compare.compare(reinterpret_cast<const uint8_t*>(a.data()), a.size() - 1,
                             reinterpret_cast<const uint8_t*>(b.data()), b.size() - 1) < 0;
    });
    std::string expected;
    for (const std::string& l : lines) expected += l;
    EXPECT_TRUE(run.sorted.substr(begin, end - begin) == expected) << "piece " << p << " is not sorted";
  }
}

TEST(LineArrivingPieces, AChunkThatEndsBeforeAnyPieceIsLeftToTheUsualSort) {
  const std::string text = "b\na\nc\n";
  const gsort::LineSpec spec = gsort::make_line_spec(gsort::LineOptions{}, false, false);
  const PieceRun run = run_pieces(text, 1 << 20, 2, false, spec);
  EXPECT_FALSE(run.taken);
  EXPECT_EQ(run.bounds.size(), 1u);
  EXPECT_EQ(run.sorted, std::string(text.size(), '?')) << "written though no piece was taken";
}

std::string gnu_sort(const TempDir& dir, const std::vector<std::string>& args, const std::string& input) {
  write_file(dir.file("gnu_in"), input);
  std::vector<std::string> argv = {"/usr/bin/sort"};
  argv.insert(argv.end(), args.begin(), args.end());
  argv.push_back(dir.file("gnu_in"));
  const ProcessResult r = run_process(argv, c_locale());
  EXPECT_EQ(r.status(), "exit 0") << r.err;
  return r.out;
}

// gsort-test-hooks `args` -v on a pipe of `input` into dir/out, pieces of
// at least `piece` bytes, the final merge forced `merge`.
ProcessResult sort_pipe(const TempDir& dir, std::vector<std::string> args, const std::string& input, uint64_t piece,
                        const std::string& merge = "planned") {
  std::vector<std::string> argv = {GSORT_HOOKS_BINARY, "-v", "-T", dir.path(), "-o", dir.file("out")};
  argv.insert(argv.end(), args.begin(), args.end());
  ProcessOptions options = c_locale(input);
  options.stdin_kind = StdinKind::kPipe;
  options.env.push_back("GSORT_TEST_LINE_PIECE_BYTES=" + std::to_string(piece));
  options.env.push_back("GSORT_TEST_FINAL_MERGE=" + merge);
  return run_process(argv, options);
}

TEST(LineArrivingPieces, APipeGivesGnuSortsBytesForRandomMixes) {
  TempDir dir;
  Rng rng(4102);
  for (int round = 0; round < 24; ++round) {
    const LineOptionsCase mix = comparable_line_options(rng);
    const std::string input = comparable_line_input(rng, mix, 3000);
    const std::string expected = gnu_sort(dir, mix.args, input);
    for (const char* merge : {"ranges:7", "batches"}) {
      SCOPED_TRACE(join_args(mix.args) + ", " + merge);
      const ProcessResult r = sort_pipe(dir, mix.args, input, 1 + rng.below(4000), merge);
      ASSERT_EQ(r.status(), "exit 0") << r.err;
      EXPECT_TRUE(read_file(dir.file("out")) == expected) << "differs from GNU sort";
      if (input.size() > 8000) EXPECT_TRUE(contains(r.err, "sorted while the stream arrived")) << r.err;
    }
  }
}

TEST(LineArrivingPieces, DuplicatesUniqueVerifyAndLongLines) {
  TempDir dir;
  Rng rng(4103);
  std::string dups, same, longs;
  for (int i = 0; i < 40000; ++i) dups += std::to_string(rng.below(9)) + (rng.chance(2) ? " x\n" : "\n");
  for (int i = 0; i < 30000; ++i) same += "all the same\n";
  for (int i = 0; i < 300; ++i) longs += std::string(1 + rng.below(30000), static_cast<char>('a' + rng.below(3))) + "\n";
  longs += "no terminator";
  const std::vector<std::vector<std::string>> mixes = {
      {}, {"-u"}, {"--verify"}, {"-r", "-s", "-k2,2"}, {"-n", "-u"}, {"-f", "--verify", "-u"}};
  for (const std::string* data : {&dups, &same, &longs}) {
    for (const std::vector<std::string>& mix : mixes) {
      SCOPED_TRACE(join_args(mix) + ", " + std::to_string(data->size()) + " bytes");
      std::vector<std::string> gnu_args;
      for (const std::string& a : mix) {
        if (a != "--verify") gnu_args.push_back(a);
      }
      const ProcessResult r = sort_pipe(dir, mix, *data, 5000);
      ASSERT_EQ(r.status(), "exit 0") << r.err;
      EXPECT_TRUE(read_file(dir.file("out")) == gnu_sort(dir, gnu_args, *data)) << "differs from GNU sort";
      EXPECT_TRUE(contains(r.err, "sorted while the stream arrived")) << r.err;
      EXPECT_EQ(count_files(dir.path()), 2u) << "files left behind";  // gnu_in, out
    }
  }
}

TEST(LineArrivingPieces, ZeroTerminatedAndAnEmptyPipe) {
  TempDir dir;
  std::string input;
  for (int i = 0; i < 5000; ++i) input += std::to_string((i * 7919) % 1000) + std::string(1, '\0');
  ProcessResult r = sort_pipe(dir, {"-z"}, input, 1000);
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_TRUE(read_file(dir.file("out")) == gnu_sort(dir, {"-z"}, input));
  r = sort_pipe(dir, {}, "", 1000);
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(read_file(dir.file("out")), "");
}

// -S 1M: chunks of 256 KiB; the pipe outgrows the first, whose pieces are
// dropped, and the chunks spill as runs. A line over a quarter of -S is
// the usual error, whether pieces were under way or not.
TEST(LineArrivingPieces, APipeThatOutgrowsItsChunkSpillsAndALongLineFails) {
  TempDir dir;
  Rng rng(4104);
  std::string input;
  while (input.size() < (3u << 20)) input += std::to_string(rng.below(1000000)) + "\n";
  const ProcessResult r = sort_pipe(dir, {"-S", "1M"}, input, 20000);
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_TRUE(read_file(dir.file("out")) == gnu_sort(dir, {}, input));
  EXPECT_FALSE(contains(r.err, "sorted while the stream arrived")) << r.err;
  ASSERT_EQ(::unlink(dir.file("out").c_str()), 0);
  const std::string too_long = "a\n" + std::string(300000, 'x') + "\nb\n";
  const ProcessResult bad = sort_pipe(dir, {"-S", "1M"}, too_long, 1000);
  EXPECT_EQ(bad.status(), "exit 2");
  EXPECT_TRUE(contains(bad.err, "a line is longer than")) << bad.err;
  EXPECT_FALSE(path_exists(dir.file("out"))) << "output written";
  EXPECT_EQ(count_files(dir.path()), 1u) << "files left behind";  // gnu_in
}

// Pieces pay only where the merge after them compares bytes: whole lines
// in C (-r, -u and -s change nothing there). A key or a collation would be
// read again at every comparison of that merge.
TEST(LineArrivingPieces, OnlyWholeLinesInCAreSortedInPieces) {
  const auto spec = [](void (*set)(gsort::LineOptions&), bool reverse, bool unique) {
    gsort::LineOptions o;
    o.enabled = true;
    if (set) set(o);
    return gsort::make_line_spec(o, reverse, unique);
  };
  EXPECT_TRUE(gsort::merge_compares_bytes(spec(nullptr, false, false)));
  EXPECT_TRUE(gsort::merge_compares_bytes(spec(nullptr, true, true)));
  EXPECT_TRUE(gsort::merge_compares_bytes(spec([](gsort::LineOptions& o) { o.stable = true; }, false, false)));
  EXPECT_FALSE(gsort::merge_compares_bytes(spec([](gsort::LineOptions& o) { o.numeric = true; }, false, false)));
  EXPECT_FALSE(gsort::merge_compares_bytes(spec([](gsort::LineOptions& o) { o.fold = true; }, false, false)));
  EXPECT_FALSE(gsort::merge_compares_bytes(spec([](gsort::LineOptions& o) { o.keys = {"2,2"}; }, false, false)));
  EXPECT_FALSE(gsort::merge_compares_bytes(spec([](gsort::LineOptions& o) { o.keys = {"1"}; }, false, false)));
  gsort::LineSpec collated = spec(nullptr, false, false);
  collated.collate_text = true;  // as a locale's make_line_spec sets it
  EXPECT_FALSE(gsort::merge_compares_bytes(collated));
}

}  // namespace
}  // namespace gsort_test
