// The CPU sorter with its radix sort handed off (sorter.h's
// EntrySortOffload, which the GPU sorter gives it, taken for a chunk whose
// buckets are too large for one task, or that one thread sorts): here a stand-in that
// sorts the entries with std::stable_sort on the host, the contract the
// device keeps. The refinement and waves that follow must give the
// reference order for every key type, for ties of every size (all equal,
// few distinct, long common prefixes, duplicates), and an offload that
// refuses a chunk must leave it to the CPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <optional>
#include <string>
#include <vector>

#include "src/chunk_sort/cpu/pair_sort.h"
#include "src/chunk_sort/lines/composite_pass.h"
#include "src/chunk_sort/lines/composite_plan.h"
#include "src/chunk_sort/lines/sorter.h"
#include "src/core/thread_pool.h"
#include "src/keys/line_image.h"
#include "tests/support/line_gen.h"
#include "tests/support/line_reference.h"
#include "tests/support/sanitizers.h"

namespace gsort {
namespace {

using gsort_test::Rng;

// Counts the chunks it sorted; refuses every one where `refuse`.
struct HostStandIn {
  std::atomic<int>* sorted;
  bool refuse = false;
  bool operator()(WideEntry* e, uint64_t n, uint64_t large) const {
    EXPECT_GT(large, 0u) << "offered only a chunk with a bucket for all threads";
    EXPECT_LE(large, n);
    if (refuse) return false;
    std::stable_sort(e, e + n, [](const WideEntry& a, const WideEntry& b) {
      return a.hi != b.hi ? a.hi < b.hi : a.lo < b.lo;
    });
    ++*sorted;
    return true;
  }
};

std::vector<std::vector<std::string>> shapes() {
  Rng rng(5);
  std::vector<std::vector<std::string>> cases(5);
  const std::vector<std::string> names = {"alpha", "beta", "gamma", "delta", "Epsilon"};
  const std::string prefix(40, 'p');
  for (int i = 0; i < 80000; ++i) {
    cases[0].push_back(std::to_string(rng.below(1000000) - 500000) + "," + names[rng.below(5)] + "," +
                       gsort_test::random_line_field(rng, false));
    cases[1].push_back("same line, every time");
    cases[2].push_back(prefix + std::to_string(rng.below(3000)) + "," + std::to_string(rng.below(10)));
    cases[3].push_back(names[rng.below(5)] + "," + std::to_string(rng.below(40)) + "," + std::to_string(i % 7));
    cases[4].push_back(gsort_test::random_line_field(rng, false) + " " + std::to_string(rng.below(100)));
  }
  return cases;
}

// One thread: every chunk goes to the offload (the CPU would sort it in
// one piece), then is cut into pieces and refined in waves.
TEST(LineSortOffload, GivesTheReferenceOrderForEveryShapeAndKey) {
  ThreadPool pool(1);
  std::atomic<int> sorted{0};
  const std::vector<std::vector<std::string>> arg_sets = {
      {},           {"-t,", "-k2,2", "-k1,1n"}, {"-t,", "-k3,3", "-k1,1nr", "-s"}, {"-f", "-r"}, {"-u"},
      {"-t,", "-k2,2g"}, {"-k1.2,1.4", "-s"}, {"-V"}, {"-t,", "-k2,2M", "-k1,1h"}, {"-d", "-i", "-b"}};
  const std::vector<std::vector<std::string>> cases = shapes();
  size_t sorts = 0;
  for (size_t c = 0; c < cases.size(); ++c) {
    // Under the sanitizers each key sorts one of the shapes, in turn.
    std::vector<std::vector<std::string>> keys;
    for (size_t a = 0; a < arg_sets.size(); ++a) {
      if (gsort_test::crossed_in_this_build(a, c, cases.size())) keys.push_back(arg_sets[a]);
    }
    EXPECT_EQ(gsort_test::differences_from_reference(
                  {cases[c]}, keys,
                  [&](const LineSpec& spec) { return make_cpu_line_sorter(spec, pool, HostStandIn{&sorted}); }),
              "")
        << "shape " << c;
    sorts += keys.size();
  }
  EXPECT_GE(sorted.load(), static_cast<int>(arg_sets.size()));
  EXPECT_EQ(sorted.load(), static_cast<int>(sorts)) << "every chunk goes to the offload";
}

// All threads: a chunk whose top bits leave one bucket of most of its
// lines (numbers alike in sign, digit count and first digit) goes to the
// offload and its pieces are refined in parallel waves; a chunk of one
// line repeated (entries all equal: in order already) does not.
TEST(LineSortOffload, ALopsidedChunkGoesToTheOffloadOnAllThreads) {
  Rng rng(8);
  std::vector<std::string> alike, same(80000, "same line, every time");
  for (int i = 0; i < 200000; ++i) {
    alike.push_back(rng.below(10) != 0 ? "5" + std::to_string(100000 + rng.below(900000))
                                       : std::to_string(rng.below(1000000000)) + " x");
  }
  ThreadPool pool(4);
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{{"-n"}, {"-k1,1n", "-r"}}) {
    std::atomic<int> sorted{0};
    EXPECT_EQ(gsort_test::differences_from_reference(
                  {alike}, {args},
                  [&](const LineSpec& spec) { return make_cpu_line_sorter(spec, pool, HostStandIn{&sorted}); }),
              "");
    EXPECT_EQ(sorted.load(), 1) << gsort_test::join_args(args);
  }
  std::atomic<int> sorted{0};
  EXPECT_EQ(gsort_test::differences_from_reference(
                {same}, {{}}, [&](const LineSpec& spec) { return make_cpu_line_sorter(spec, pool, HostStandIn{&sorted}); }),
            "");
  EXPECT_EQ(sorted.load(), 0) << "equal entries need no sort";
}

// Top bits that take few values leave buckets of several times a task's
// share, none near a thread's: one task sorts each, in the waves, and
// nothing goes to the offload. Here the top 12 varying bits are one digit
// three times over: 10 buckets of a tenth of the lines each, past
// kLargeBucket, under an eighth (half of one thread's share on 4 threads).
TEST(LineSortOffload, BucketsOfAFewTasksSharesAreSortedByOneTaskEach) {
  Rng rng(9);
  std::vector<std::string> lines;
  for (int i = 0; i < 1000000; ++i) {
    const std::string digit(1, static_cast<char>('0' + rng.below(10)));
    lines.push_back(digit + digit + digit + std::to_string(rng.below(1000000000)));
  }
  ThreadPool pool(4);
  std::atomic<int> sorted{0};
  EXPECT_EQ(gsort_test::differences_from_reference(
                {lines}, {{}, {"-r"}},
                [&](const LineSpec& spec) { return make_cpu_line_sorter(spec, pool, HostStandIn{&sorted}); }),
            "");
  EXPECT_EQ(sorted.load(), 0) << "no bucket is large enough for all threads";
}

TEST(LineSortOffload, AChunkItRefusesIsSortedOnTheCpu) {
  ThreadPool pool(4);
  std::atomic<int> sorted{0};
  EXPECT_EQ(gsort_test::differences_from_reference(shapes(), {{"-t,", "-k2,2", "-k1,1n"}, {}},
                                                   [&](const LineSpec& spec) {
                                                     return make_cpu_line_sorter(spec, pool, HostStandIn{&sorted, true});
                                                   }),
            "");
  EXPECT_EQ(sorted.load(), 0);
}

TEST(LineSortOffload, SmallChunksStayOnTheCpu) {
  ThreadPool pool(2);
  std::atomic<int> sorted{0};
  EXPECT_EQ(gsort_test::random_rounds_against_reference(
                11, 200, 300, [&](const LineSpec& spec) { return make_cpu_line_sorter(spec, pool, HostStandIn{&sorted}); }),
            "");
  EXPECT_EQ(sorted.load(), 0) << "a round trip for a few hundred lines costs more than it saves";
}

// A composite offload (composite_pass.h's, which the GPU sorter gives for
// its fill) that declines a chunk, or finds lines that miss every plan it
// is handed (a few, or too many to list), leaves the fill to the CPU: a
// plan it missed is widened once and handed over again, then the CPU
// fills by a plan widened twice; the order is the reference's.
TEST(LineSortOffload, ACompositeOffloadThatDeclinesOrMissesLeavesTheFillToTheCpu) {
  ThreadPool pool(4);
  const std::vector<std::vector<std::string>> cases = {shapes()[0], shapes()[3]};
  const std::vector<std::vector<std::string>> arg_sets = {{"-t,", "-k2,2", "-k1,1n"}, {"-t,", "-k2,2", "-k1,1nr", "-s"}};
  enum class Answer { kDecline, kFewMisfits, kManyMisfits };
  for (const Answer answer : {Answer::kDecline, Answer::kFewMisfits, Answer::kManyMisfits}) {
    std::atomic<int> calls{0};
    const CompositeOffload offload = [&](const LineSpan& lines, const std::vector<LineImageSpec>&, const Composite&,
                                         const std::vector<uint64_t>&, WideEntry*) -> std::optional<Misfits> {
      ++calls;
      if (answer == Answer::kDecline) return std::nullopt;
      Misfits m;
      m.many = answer == Answer::kManyMisfits;
      for (uint64_t i = 0; i < lines.count && !m.many; i += 997) m.lines.push_back(i);
      return m;
    };
    EXPECT_EQ(gsort_test::differences_from_reference(cases, arg_sets,
                                                     [&](const LineSpec& spec) {
                                                       return make_cpu_line_sorter(spec, pool, {}, offload);
                                                     }),
              "");
    const int chunks = static_cast<int>(cases.size() * arg_sets.size());
    EXPECT_EQ(calls.load(), answer == Answer::kDecline ? chunks : 2 * chunks) << static_cast<int>(answer);
  }
}

// A composite offload that fills and sorts as the device does and then
// refines the ties by `words` more image words at the level they start
// from (kernels/tie_words.h's contract): the entries come back grouped by
// every earlier level's image and that level's words up to the new depth,
// each entry's bits its group's first place, in line order within a group.
// The host refines the rest from there: the order must be the reference's
// however many words the offload claims, and a chunk it leaves with no
// ties must be taken as settled.
struct TieRefiningStandIn {
  uint64_t words;
  std::atomic<int>* tied_chunks;
  std::optional<Misfits> operator()(const LineSpan& lines, const std::vector<LineImageSpec>& specs, const Composite& c,
                                    const std::vector<uint64_t>&, WideEntry* entries) const {
    constexpr uint64_t kWholeImage = 16;  // words: more than any test line's image takes
    const TieStart& start = c.start;
    const auto key_of = [&](uint64_t i) {
      std::vector<uint64_t> key;
      const size_t levels = start.settled ? specs.size() : start.level + 1;
      for (size_t l = 0; l < levels; ++l) {
        const LineImageView v = view_line_image(specs[l], lines.line(i), lines.length(i));
        const bool last = !start.settled && l == start.level;
        for (uint64_t w = 0; w < (last ? start.depth + words : kWholeImage); ++w) key.push_back(line_image_word(specs[l], v, w));
      }
      return key;
    };
    std::vector<std::vector<uint64_t>> keys(lines.count);
    std::vector<uint32_t> order(lines.count);
    for (uint64_t i = 0; i < lines.count; ++i) {
      keys[i] = key_of(i);
      order[i] = static_cast<uint32_t>(i);
    }
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return keys[a] < keys[b]; });
    Misfits m;
    m.words_refined = start.settled ? 0 : words;
    m.settled = true;
    uint64_t group = 0;
    for (uint64_t k = 0; k < lines.count; ++k) {
      if (k > 0 && keys[order[k]] == keys[order[k - 1]]) {
        m.settled = false;
      } else {
        group = k;
      }
      entries[k] = WideEntry{group, 0, order[k]};
    }
    if (!m.settled) ++*tied_chunks;
    return m;
  }
};

TEST(LineSortOffload, ACompositeOffloadThatRefinesTiesLeavesTheRestToTheHost) {
  ThreadPool pool(4);
  const std::vector<std::vector<std::string>> all = shapes();
  const std::vector<std::vector<std::string>> cases = {all[0], all[2], all[3]};
  const std::vector<std::vector<std::string>> arg_sets = {
      {"-t,", "-k2,2", "-k1,1n"}, {"-t,", "-k2,2", "-k1,1nr", "-s"}, {"-t,", "-k2,2", "-k1,1", "-r"}};
  for (const uint64_t words : {0, 2, 6}) {
    SCOPED_TRACE("words " + std::to_string(words));
    std::atomic<int> tied{0};
    EXPECT_EQ(gsort_test::differences_from_reference(cases, arg_sets,
                                                     [&](const LineSpec& spec) {
                                                       return make_cpu_line_sorter(spec, pool, {},
                                                                                   TieRefiningStandIn{words, &tied});
                                                     }),
              "");
    EXPECT_GT(tied.load(), 0) << "no chunk left ties for the host";
  }
}

}  // namespace
}  // namespace gsort
