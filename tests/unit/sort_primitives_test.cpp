// The host sorting building blocks (src/sort/, src/core/thread_pool): radix
// sort of key entries, merge path, the loser tree, gather, and the thread
// pool. Each is checked against a plain std:: reference, stability included.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <mutex>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "src/core/thread_pool.h"
#include "src/algo/gather.h"
#include "src/core/test_hooks.h"
#include "src/chunk_sort/entries/key_entry.h"
#include "src/algo/keyed_loser_tree.h"
#include "src/algo/loser_tree.h"
#include "src/algo/merge_path.h"
#include "src/chunk_sort/cpu/radix_sort.h"

namespace gsort {
namespace {

// ------------------------------------------------------------- radix sort

enum class Pattern { kRandom, kSorted, kReverse, kAllEqual, kFewDistinct, kLowEntropy, kHighByteOnly,
                     kLowByteOnly, kOneDifferent };

const char* pattern_name(Pattern p) {
  switch (p) {
    case Pattern::kRandom: return "random";
    case Pattern::kSorted: return "sorted";
    case Pattern::kReverse: return "reverse";
    case Pattern::kAllEqual: return "all-equal";
    case Pattern::kFewDistinct: return "few-distinct";
    case Pattern::kLowEntropy: return "low-entropy";
    case Pattern::kHighByteOnly: return "high-byte-only";
    case Pattern::kLowByteOnly: return "low-byte-only";
    case Pattern::kOneDifferent: return "one-different";
  }
  return "?";
}

std::vector<uint64_t> make_prefixes(Pattern p, size_t n, std::mt19937_64& rng) {
  std::vector<uint64_t> v(n);
  const uint64_t distinct[5] = {rng(), rng(), rng(), rng(), rng()};
  for (size_t i = 0; i < n; ++i) {
    switch (p) {
      case Pattern::kRandom: v[i] = rng(); break;
      case Pattern::kSorted: v[i] = i * 0x0101010101ull; break;
      case Pattern::kReverse: v[i] = ~(i * 0x0101010101ull); break;
      case Pattern::kAllEqual: v[i] = 0x1234567890ABCDEFull; break;
      case Pattern::kFewDistinct: v[i] = distinct[rng() % 5]; break;
      case Pattern::kLowEntropy: v[i] = rng() & rng() & rng() & rng(); break;  // many duplicates, skewed bits
      case Pattern::kHighByteOnly: v[i] = (rng() % 7) << 56 | 0x00FF00FF00FF00FFull; break;
      case Pattern::kLowByteOnly: v[i] = 0xABCDEF0000000000ull | (rng() % 3); break;
      case Pattern::kOneDifferent: v[i] = i == n / 2 ? 1 : 2; break;
    }
  }
  return v;
}

// KeyEntry is packed: its fields are compared as copies (uint64_t{...}),
// since the assertions bind references, which must not point at a
// misaligned member (UBSan under clang reports them).
TEST(RadixSortEntries, MatchesStableSortOnEveryPatternAndSize) {
  std::mt19937_64 rng(2024);
  const size_t sizes[] = {0, 1, 2, 3, 63, 64, 65, 1000, 100003};
  const Pattern patterns[] = {Pattern::kRandom,      Pattern::kSorted,     Pattern::kReverse,
                              Pattern::kAllEqual,    Pattern::kFewDistinct, Pattern::kLowEntropy,
                              Pattern::kHighByteOnly, Pattern::kLowByteOnly, Pattern::kOneDifferent};
  for (size_t n : sizes) {
    for (Pattern p : patterns) {
      SCOPED_TRACE(std::string(pattern_name(p)) + " n=" + std::to_string(n));
      const std::vector<uint64_t> prefixes = make_prefixes(p, n, rng);
      std::vector<KeyEntry> entries(n), scratch(n);
      for (size_t i = 0; i < n; ++i) {
        entries[i].prefix = prefixes[i];
        entries[i].index = static_cast<uint32_t>(i);
      }
      std::vector<KeyEntry> expected = entries;
      std::stable_sort(expected.begin(), expected.end(),
                       [](const KeyEntry& a, const KeyEntry& b) { return a.prefix < b.prefix; });
      radix_sort_entries(entries.data(), scratch.data(), n);
      for (size_t i = 0; i < n; ++i) {
        ASSERT_EQ(uint64_t{entries[i].prefix}, uint64_t{expected[i].prefix}) << "position " << i;
        ASSERT_EQ(uint32_t{entries[i].index}, uint32_t{expected[i].index}) << "position " << i << " (stability)";
      }
    }
  }
}

TEST(RadixSortEntries, EqualPrefixesKeepAscendingIndexes) {
  // Indexes deliberately not in input order: stability is about positions,
  // so equal prefixes must keep the order the entries arrived in.
  std::mt19937_64 rng(8);
  const size_t n = 5000;
  std::vector<KeyEntry> entries(n), scratch(n);
  for (size_t i = 0; i < n; ++i) {
    entries[i].prefix = (rng() % 4) << 40;
    entries[i].index = static_cast<uint32_t>(n - i);  // descending tags
  }
  radix_sort_entries(entries.data(), scratch.data(), n);
  for (size_t i = 1; i < n; ++i) {
    ASSERT_LE(uint64_t{entries[i - 1].prefix}, uint64_t{entries[i].prefix});
    if (entries[i - 1].prefix == entries[i].prefix) {
      ASSERT_GT(uint32_t{entries[i - 1].index}, uint32_t{entries[i].index});
    }
  }
}

// -------------------------------------------------------------- merge path

struct Tagged {
  int key;
  int tag;  // position in its own sequence, with the sequence in the high bits
};

TEST(MergePath, EveryDiagonalSplitsAStableMerge) {
  std::mt19937_64 rng(77);
  const auto less = [](const Tagged& x, const Tagged& y) { return x.key < y.key; };
  const size_t lengths[] = {0, 1, 2, 5, 17, 64, 200};
  for (size_t na : lengths) {
    for (size_t nb : lengths) {
      for (int key_range : {1, 3, 1000}) {
        std::vector<Tagged> a(na), b(nb);
        for (size_t i = 0; i < na; ++i) a[i] = {static_cast<int>(rng() % key_range), static_cast<int>(i)};
        for (size_t i = 0; i < nb; ++i) b[i] = {static_cast<int>(rng() % key_range), 1000000 + static_cast<int>(i)};
        std::stable_sort(a.begin(), a.end(), less);
        std::stable_sort(b.begin(), b.end(), less);
        std::vector<Tagged> merged(na + nb);
        std::merge(a.begin(), a.end(), b.begin(), b.end(), merged.begin(), less);  // stable: a first on ties
        size_t from_a = 0;
        for (uint64_t d = 0; d <= na + nb; ++d) {
          const uint64_t i = merge_path(a, na, b, nb, d, less);
          ASSERT_EQ(i, from_a) << "na=" << na << " nb=" << nb << " keys<" << key_range << " diagonal " << d;
          if (d < na + nb && merged[d].tag < 1000000) ++from_a;
        }
      }
    }
  }
}

TEST(MergePath, WorksOnRawPointersAndSplitsGiveTheWholeMerge) {
  // Merging independently between consecutive diagonals, as the CPU backend
  // does, must give exactly the stable merge.
  std::mt19937_64 rng(3);
  const size_t na = 1000, nb = 777;
  std::vector<uint64_t> a(na), b(nb);
  for (auto& x : a) x = rng() % 50;
  for (auto& x : b) x = rng() % 50;
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  // Values tagged by origin: a's in the low bit 0, b's 1, to see stability.
  for (auto& x : a) x = x * 2;
  for (auto& x : b) x = x * 2 + 1;
  const auto less = [](uint64_t x, uint64_t y) { return x / 2 < y / 2; };
  std::vector<uint64_t> expected(na + nb);
  std::merge(a.begin(), a.end(), b.begin(), b.end(), expected.begin(), less);
  for (size_t parts : {1, 2, 3, 7, 64, 1777}) {
    std::vector<uint64_t> out(na + nb);
    for (size_t p = 0; p < parts; ++p) {
      const uint64_t d0 = split_point(na + nb, parts, p), d1 = split_point(na + nb, parts, p + 1);
      uint64_t i = merge_path(a.data(), na, b.data(), nb, d0, less), j = d0 - i;
      const uint64_t i_end = merge_path(a.data(), na, b.data(), nb, d1, less), j_end = d1 - i_end;
      ASSERT_LE(i, i_end);
      ASSERT_LE(j, j_end);
      uint64_t k = d0;
      while (i < i_end && j < j_end) out[k++] = less(b[j], a[i]) ? b[j++] : a[i++];
      while (i < i_end) out[k++] = a[i++];
      while (j < j_end) out[k++] = b[j++];
      ASSERT_EQ(k, d1);
    }
    EXPECT_EQ(out, expected) << parts << " parts";
  }
}

// -------------------------------------------------------------- loser tree

struct Emitted {
  int key;
  size_t source;
  size_t position;
  bool operator==(const Emitted& o) const { return key == o.key && source == o.source && position == o.position; }
};

std::vector<Emitted> reference_kway(const std::vector<std::vector<int>>& seqs) {
  std::vector<Emitted> all;
  for (size_t s = 0; s < seqs.size(); ++s) {
    for (size_t i = 0; i < seqs[s].size(); ++i) all.push_back({seqs[s][i], s, i});
  }
  std::stable_sort(all.begin(), all.end(), [](const Emitted& x, const Emitted& y) { return x.key < y.key; });
  return all;  // built source by source, so ties are already in source order
}

std::vector<std::vector<int>> make_sequences(size_t k, std::mt19937_64& rng, int key_range) {
  std::vector<std::vector<int>> seqs(k);
  for (size_t s = 0; s < k; ++s) {
    const size_t len = rng() % 4 == 0 ? 0 : rng() % 60;  // about a quarter empty
    for (size_t i = 0; i < len; ++i) seqs[s].push_back(static_cast<int>(rng() % key_range));
    std::sort(seqs[s].begin(), seqs[s].end());
  }
  return seqs;
}

// Like the run merger: empty sources never enter the tree.
std::vector<Emitted> merge_with_tree(const std::vector<std::vector<int>>& seqs) {
  std::vector<size_t> slot_source;
  for (size_t s = 0; s < seqs.size(); ++s) {
    if (!seqs[s].empty()) slot_source.push_back(s);
  }
  std::vector<size_t> pos(seqs.size(), 0);
  const auto less = [&](size_t i, size_t j) {
    const int x = seqs[slot_source[i]][pos[slot_source[i]]], y = seqs[slot_source[j]][pos[slot_source[j]]];
    return x != y ? x < y : i < j;
  };
  LoserTree<decltype(less)> tree(slot_source.size(), less);
  EXPECT_EQ(tree.sources(), slot_source.size());
  std::vector<Emitted> out;
  while (!tree.empty()) {
    const size_t s = slot_source[tree.winner()];
    out.push_back({seqs[s][pos[s]], s, pos[s]});
    ++pos[s];
    tree.advance(pos[s] < seqs[s].size());
  }
  return out;
}

// Every source enters the tree; an empty one has a head past every key, and
// leaves the tree (advance(false)) when it comes up as the winner.
std::vector<Emitted> merge_with_empty_heads(const std::vector<std::vector<int>>& seqs) {
  std::vector<size_t> pos(seqs.size(), 0);
  const auto less = [&](size_t i, size_t j) {
    const bool ei = pos[i] == seqs[i].size(), ej = pos[j] == seqs[j].size();
    if (ei != ej) return ej;
    if (ei) return i < j;
    const int x = seqs[i][pos[i]], y = seqs[j][pos[j]];
    return x != y ? x < y : i < j;
  };
  LoserTree<decltype(less)> tree(seqs.size(), less);
  std::vector<Emitted> out;
  while (!tree.empty()) {
    const size_t s = tree.winner();
    if (pos[s] == seqs[s].size()) {
      tree.advance(false);
      continue;
    }
    out.push_back({seqs[s][pos[s]], s, pos[s]});
    ++pos[s];
    tree.advance(pos[s] < seqs[s].size());
  }
  return out;
}

TEST(LoserTree, KWayMergeIsStableAcrossSources) {
  std::mt19937_64 rng(17);
  for (size_t k : {1, 2, 3, 5, 8, 17, 64}) {
    for (int key_range : {1, 4, 1000}) {
      for (int round = 0; round < 5; ++round) {
        const auto seqs = make_sequences(k, rng, key_range);
        const auto expected = reference_kway(seqs);
        SCOPED_TRACE("k=" + std::to_string(k) + " keys<" + std::to_string(key_range));
        ASSERT_TRUE(merge_with_tree(seqs) == expected);
        ASSERT_TRUE(merge_with_empty_heads(seqs) == expected);
      }
    }
  }
}

TEST(LoserTree, EdgeCases) {
  // No sources at all.
  const auto never = [](size_t, size_t) -> bool {
    ADD_FAILURE() << "compared with no sources";
    return false;
  };
  LoserTree<decltype(never)> none(0, never);
  EXPECT_TRUE(none.empty());
  // Every source empty, all in the tree.
  std::vector<std::vector<int>> empties(5);
  EXPECT_TRUE(merge_with_empty_heads(empties).empty());
  EXPECT_TRUE(merge_with_tree(empties).empty());
  // One source.
  std::vector<std::vector<int>> one = {{1, 1, 2, 9}};
  EXPECT_TRUE(merge_with_tree(one) == reference_kway(one));
  // Sources that are all the same key: output is source by source.
  std::vector<std::vector<int>> same = {{5, 5}, {5}, {}, {5, 5, 5}};
  const auto out = merge_with_tree(same);
  ASSERT_EQ(out.size(), 6u);
  const size_t order[] = {0, 0, 1, 3, 3, 3};
  for (size_t i = 0; i < 6; ++i) EXPECT_EQ(out[i].source, order[i]) << i;
}

// The keyed tree holds each head's prefix (here the key without its low two
// bits); tie() settles equal prefixes by the whole key, then source. Empty
// sources start out of the tree.
std::vector<Emitted> merge_with_keyed_tree(const std::vector<std::vector<int>>& seqs) {
  std::vector<size_t> pos(seqs.size(), 0);
  const auto prefix = [&](size_t s) { return static_cast<uint64_t>(seqs[s][pos[s]]) >> 2; };
  const auto tie = [&](size_t i, size_t j) {
    const int x = seqs[i][pos[i]], y = seqs[j][pos[j]];
    return x != y ? x < y : i < j;
  };
  std::vector<uint64_t> prefixes(seqs.size());
  std::vector<bool> live(seqs.size());
  for (size_t s = 0; s < seqs.size(); ++s) {
    live[s] = !seqs[s].empty();
    if (live[s]) prefixes[s] = prefix(s);
  }
  KeyedLoserTree<decltype(tie)> tree(prefixes, live, tie);
  std::vector<Emitted> out;
  while (!tree.empty()) {
    const size_t s = tree.winner();
    out.push_back({seqs[s][pos[s]], s, pos[s]});
    ++pos[s];
    const bool more = pos[s] < seqs[s].size();
    tree.advance(more, more ? prefix(s) : 0);
  }
  return out;
}

TEST(KeyedLoserTree, KWayMergeIsStableAcrossSources) {
  std::mt19937_64 rng(19);
  for (size_t k : {1, 2, 3, 5, 8, 17, 64}) {
    for (int key_range : {1, 4, 1000}) {
      for (int round = 0; round < 5; ++round) {
        const auto seqs = make_sequences(k, rng, key_range);
        SCOPED_TRACE("k=" + std::to_string(k) + " keys<" + std::to_string(key_range));
        ASSERT_TRUE(merge_with_keyed_tree(seqs) == reference_kway(seqs));
      }
    }
  }
  EXPECT_TRUE(merge_with_keyed_tree(std::vector<std::vector<int>>(5)).empty());
}

// ------------------------------------------------------------------ gather

TEST(GatherRecords, CopiesInTheGivenOrderForEveryRecordSize) {
  std::mt19937_64 rng(41);
  // gsort's own tasks, and tasks of 5 records (test_hooks::gather_task_records).
  static uint64_t task_records = 0;
  test_hooks::gather_task_records = [] { return task_records; };
  struct Unhook {
    ~Unhook() { test_hooks::gather_task_records = nullptr; }
  } unhook;
  for (unsigned threads : {1u, 3u, 4u}) {
    task_records = threads == 4 ? 5 : 0;
    ThreadPool pool(threads);
    for (uint32_t rs : {1u, 3u, 4u, 7u, 8u, 16u, 32u, 64u, 100u, 128u, 129u, 4096u}) {
      for (uint64_t count : {0ull, 1ull, 2ull, 100ull, 40000ull}) {
        if (uint64_t{rs} * count > (64ull << 20)) continue;
        std::vector<uint8_t> records(rs * count);
        for (auto& byte : records) byte = static_cast<uint8_t>(rng());
        std::vector<uint32_t> order(count);
        std::iota(order.begin(), order.end(), 0u);
        std::shuffle(order.begin(), order.end(), rng);
        if (count > 2) order[1] = order[0];  // repeats are allowed
        // A guard past the end catches writes beyond count records.
        std::vector<uint8_t> out(rs * count + 16, 0xEE);
        gather_records(pool, records.data(), rs, order.data(), count, out.data());
        for (uint64_t i = 0; i < count; ++i) {
          ASSERT_EQ(std::memcmp(out.data() + i * rs, records.data() + uint64_t{order[i]} * rs, rs), 0)
              << "record " << i << " of " << count << ", size " << rs << ", " << threads << " threads";
        }
        for (size_t g = 0; g < 16; ++g) ASSERT_EQ(out[rs * count + g], 0xEE) << "wrote past the end";
      }
    }
  }
}

// ------------------------------------------------------------- thread pool

TEST(ThreadPoolTest, RunsEveryTaskExactlyOnce) {
  for (unsigned threads : {1u, 2u, 3u, 8u}) {
    ThreadPool pool(threads);
    EXPECT_EQ(pool.size(), threads);
    for (size_t tasks : {0, 1, 2, 3, 7, 1000}) {
      std::vector<std::atomic<int>> runs(tasks);
      for (auto& r : runs) r = 0;
      pool.parallel_for(tasks, [&](size_t i) { runs[i].fetch_add(1); });
      for (size_t i = 0; i < tasks; ++i) ASSERT_EQ(runs[i].load(), 1) << "task " << i << " of " << tasks;
    }
  }
}

// How many distinct threads ran 8 tasks of 20 ms each on `pool`.
size_t threads_taking_part(ThreadPool& pool) {
  std::mutex m;
  std::set<std::thread::id> ids;
  pool.parallel_for(8, [&](size_t) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    std::lock_guard<std::mutex> lock(m);
    ids.insert(std::this_thread::get_id());
  });
  return ids.size();
}

TEST(ThreadPoolTest, WorkersShareBlockingTasks) {
  // Tasks that sleep: the calling thread cannot run them all in the time
  // the workers take to wake, so more than one thread must take part.
  ThreadPool pool(4);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // workers started
  EXPECT_GT(threads_taking_part(pool), 1u);
}

// The first parallel_for right after construction must reach the workers
// too (in gsort it is the first chunk's sort). A worker that starts after
// the loop was posted must still take part in it.
TEST(ThreadPoolTest, FirstLoopAfterConstructionUsesTheWorkers) {
  for (int trial = 0; trial < 10; ++trial) {
    ThreadPool pool(4);
    EXPECT_GT(threads_taking_part(pool), 1u) << "trial " << trial << ": only the calling thread ran the tasks";
  }
}

TEST(ThreadPoolTest, ManyBackToBackLoops) {
  // Generations follow each other quickly: no task lost or run twice.
  ThreadPool pool(4);
  std::atomic<uint64_t> sum{0};
  uint64_t expected = 0;
  for (int round = 0; round < 3000; ++round) {
    const size_t tasks = 1 + round % 9;
    pool.parallel_for(tasks, [&](size_t i) {
      volatile uint64_t spin = 0;  // enough work that the workers take some tasks
      for (int k = 0; k < 200 * (1 + static_cast<int>(i)); ++k) spin = spin + k;
      sum += i + 1;
    });
    expected += tasks * (tasks + 1) / 2;
    ASSERT_EQ(sum.load(), expected) << "round " << round;
  }
}

// An urgent loop (the output's gather) gets a worker as soon as that worker
// is done with its task, ahead of the tasks left in older loops.
TEST(ThreadPoolTest, AnUrgentLoopGoesAheadOfOlderLoops) {
  ThreadPool pool(2);  // one worker, and each loop's caller
  std::mutex m;
  std::condition_variable cv;
  bool gate_open = false, urgent_taken = false;
  int normal_blocked = 0, normal_by_worker_after_gate = 0;
  std::thread::id a_id;
  std::thread a([&] {
    a_id = std::this_thread::get_id();
    pool.parallel_for(100, [&](size_t) {
      std::unique_lock<std::mutex> lock(m);
      if (gate_open && !urgent_taken && std::this_thread::get_id() != a_id) ++normal_by_worker_after_gate;
      if (gate_open && std::this_thread::get_id() == a_id) {
        // Thread a holds on to its next task, so that the old loop still has
        // tasks to hand out when the worker comes back for one.
        cv.wait_for(lock, std::chrono::seconds(10), [&] { return urgent_taken; });
      }
      if (!gate_open) {
        ++normal_blocked;
        cv.notify_all();
        cv.wait(lock, [&] { return gate_open; });
      }
    });
  });
  {
    // Both the worker and thread a are inside the old loop's tasks.
    std::unique_lock<std::mutex> lock(m);
    ASSERT_TRUE(cv.wait_for(lock, std::chrono::seconds(10), [&] { return normal_blocked == 2; }));
  }
  std::thread b([&] {
    pool.parallel_for(
        2,
        [&](size_t i) {
          std::unique_lock<std::mutex> lock(m);
          if (i == 0) {  // run by b itself, once the loop is open: free the worker, wait for it to come here
            gate_open = true;
            cv.notify_all();
            EXPECT_TRUE(cv.wait_for(lock, std::chrono::seconds(10), [&] { return urgent_taken; }))
                << "the worker never took the urgent task";
          } else {
            urgent_taken = true;
            cv.notify_all();
          }
        },
        true);
  });
  b.join();
  a.join();
  EXPECT_EQ(normal_by_worker_after_gate, 0) << "the worker took older tasks before the urgent one";
}

TEST(ThreadPoolTest, RethrowsATaskExceptionAndStaysUsable) {
  for (unsigned threads : {1u, 4u}) {
    ThreadPool pool(threads);
    try {
      pool.parallel_for(100, [&](size_t i) {
        if (i == 37) throw std::runtime_error("task 37 failed");
      });
      ADD_FAILURE() << "no exception with " << threads << " threads";
    } catch (const std::runtime_error& e) {
      EXPECT_STREQ(e.what(), "task 37 failed");
    }
    // Several failing tasks: one of their exceptions comes out.
    EXPECT_THROW(pool.parallel_for(50, [](size_t i) {
      if (i % 2) throw std::logic_error("odd");
    }), std::logic_error);
    // The pool still works afterwards and no stale error leaks into this loop.
    std::vector<std::atomic<int>> runs(64);
    for (auto& r : runs) r = 0;
    EXPECT_NO_THROW(pool.parallel_for(64, [&](size_t i) { runs[i]++; }));
    for (size_t i = 0; i < 64; ++i) EXPECT_EQ(runs[i].load(), 1);
  }
}

TEST(SplitPoint, CoversTheRangeExactlyForHugeCounts) {
  const size_t counts[] = {0, 1, 7, 16, 1000003, (size_t{1} << 40) + 7, SIZE_MAX - 1, SIZE_MAX};
  const size_t parts_list[] = {1, 2, 3, 16, 1000};
  for (size_t n : counts) {
    for (size_t parts : parts_list) {
      SCOPED_TRACE("n=" + std::to_string(n) + " parts=" + std::to_string(parts));
      ASSERT_EQ(split_point(n, parts, 0), 0u);
      ASSERT_EQ(split_point(n, parts, parts), n);
      const size_t small = n / parts, large = small + (n % parts ? 1 : 0);
      for (size_t p = 0; p < parts; ++p) {
        const size_t lo = split_point(n, parts, p), hi = split_point(n, parts, p + 1);
        ASSERT_LE(lo, hi);
        ASSERT_TRUE(hi - lo == small || hi - lo == large) << "part " << p << " has " << hi - lo;
      }
    }
  }
}

}  // namespace
}  // namespace gsort
