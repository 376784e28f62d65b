#include "src/chunk_sort/lines/key_runs.h"

#include <algorithm>
#include <cstring>

#include "src/chunk_sort/cpu/pair_sort.h"
#include "src/chunk_sort/cpu/radix_sort.h"
#include "src/chunk_sort/lines/collated_ranks.h"
#include "src/keys/line_image.h"

namespace gsort {

size_t refine_tasks(ThreadPool& pool, uint64_t n) {
  return static_cast<size_t>(std::max<uint64_t>(1, std::min<uint64_t>(pool.balanced_task_count(), n >> 12)));
}

std::vector<TieSegment> tied_runs(ThreadPool& pool, const KeyEntry* e, uint64_t n, uint64_t depth, uint64_t base,
                                  uint32_t level) {
  const size_t tasks = refine_tasks(pool, n);
  std::vector<std::vector<TieSegment>> found(tasks);
  pool.parallel_for(tasks, [&](size_t t) {
    // A task takes the runs that start in its range.
    uint64_t i = split_point(n, tasks, t);
    const uint64_t end = split_point(n, tasks, t + 1);
    while (i > 0 && i < end && e[i].prefix == e[i - 1].prefix) ++i;
    while (i < end) {
      uint64_t j = i + 1;
      while (j < n && e[j].prefix == e[i].prefix) ++j;
      if (j - i > 1) found[t].push_back({base + i, j - i, depth, level});
      i = j;
    }
  });
  std::vector<TieSegment> all;
  for (auto& f : found) all.insert(all.end(), f.begin(), f.end());
  return all;
}

namespace {
constexpr uint64_t kFewForRadix = 64;  // entries sorted by comparisons rather than radix passes
}  // namespace

void sort_into_key_runs(ThreadPool* pool, const LineImageSpec& image, const KeyBytes* keys, KeyEntry* e,
                        KeyEntry* tmp, uint64_t n) {
  // The members by their keys' bytes, so that the collation orders each
  // distinct key once: a segment of lines whose heads tie is mostly a few
  // keys repeated ("182346" and "-182346", say, or one word's lines), and
  // strcoll between two of them costs what sorting all their lines by
  // bytes does.
  struct Member {
    const uint8_t* key;
    uint64_t length;
    uint64_t at;  // its place in e
  };
  thread_local std::vector<Member> members;
  thread_local std::vector<uint64_t> distinct;
  thread_local std::vector<uint32_t> order, ranks;
  members.resize(n);
  for (uint64_t i = 0; i < n; ++i) members[i] = Member{keys[i].data, keys[i].len, i};
  const auto bytes_less = [](const Member& a, const Member& b) {
    return compare_line_bytes(a.key, a.length, b.key, b.length) < 0;
  };
  std::sort(members.begin(), members.end(), bytes_less);
  distinct.clear();  // the first member of each run of equal bytes
  for (uint64_t k = 0; k < n; ++k) {
    if (k == 0 || bytes_less(members[k - 1], members[k])) distinct.push_back(k);
  }
  rank_in_order(
      static_cast<uint32_t>(distinct.size()),
      [&](uint32_t a, uint32_t b) {
        const Member &x = members[distinct[a]], &y = members[distinct[b]];
        return compare_transformed_key(image, x.key, x.length, y.key, y.length);
      },
      order, ranks);
  for (uint64_t k = 0, d = 0; k < n; ++k) {
    if (k != 0 && bytes_less(members[k - 1], members[k])) ++d;  // the next distinct key's run
    e[members[k].at].prefix = ranks[d];
  }
  // By rank, members of one rank in the order they came (stable).
  if (n <= kFewForRadix) {
    std::stable_sort(e, e + n, [](const KeyEntry& a, const KeyEntry& b) { return a.prefix < b.prefix; });
  } else {
    pool != nullptr ? sort_pairs(*pool, e, tmp, n) : radix_sort_entries(e, tmp, n);
  }
}

void sort_by_heads(ThreadPool* pool, const LineImageSpec& image, const LineSpan& lines, KeyEntry* e, KeyEntry* tmp,
                   uint64_t n) {
  thread_local std::vector<uint64_t> words;
  words.resize(kHeadWords * n);
  // The calling thread's words, by address: in a task on another thread,
  // `words` would name that thread's own (empty) vector.
  uint64_t* const heads = words.data();
  const auto fill = [&, heads](uint64_t begin, uint64_t end) {
    for (uint64_t i = begin; i < end; ++i) {
      const uint32_t line = e[i].index;
      const LineImageView v = view_line_image(image, lines.line(line), lines.length(line));
      for (uint64_t w = 0; w < kHeadWords; ++w) heads[kHeadWords * i + w] = line_image_word(image, v, w);
    }
  };
  const size_t tasks = pool != nullptr ? refine_tasks(*pool, n) : 1;
  if (tasks == 1) {
    fill(0, n);
  } else {
    pool->parallel_for(tasks, [&](size_t t) { fill(split_point(n, tasks, t), split_point(n, tasks, t + 1)); });
  }
  sort_by_given_heads(pool, heads, e, tmp, n);
}

void sort_by_given_heads(ThreadPool* pool, const uint64_t* words, KeyEntry* e, KeyEntry* tmp, uint64_t n) {
  thread_local std::vector<uint32_t> line_of;
  line_of.resize(n);
  for (uint64_t i = 0; i < n; ++i) {
    line_of[i] = e[i].index;
    e[i].index = static_cast<uint32_t>(i);  // its place among the n, until the end
  }
  const auto head_less = [&](const KeyEntry& a, const KeyEntry& b) {
    for (uint64_t w = 0; w < kHeadWords; ++w) {
      const uint64_t x = words[kHeadWords * a.index + w], y = words[kHeadWords * b.index + w];
      if (x != y) return x < y;
    }
    return false;
  };
  if (n <= kFewForRadix) {
    std::stable_sort(e, e + n, head_less);  // a radix sort's passes cost more than a few comparisons
  } else {
    const bool parallel = pool != nullptr && refine_tasks(*pool, n) > 1;
    // Least significant word first: each pass is stable.
    for (uint64_t w = kHeadWords; w-- > 0;) {
      for (uint64_t i = 0; i < n; ++i) e[i].prefix = words[kHeadWords * e[i].index + w];
      parallel ? sort_pairs(*pool, e, tmp, n) : radix_sort_entries(e, tmp, n);
    }
  }
  uint64_t run = 0, previous = 0;
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t at = e[i].index;
    if (i != 0 && std::memcmp(&words[kHeadWords * at], &words[kHeadWords * previous], 8 * kHeadWords) != 0) ++run;
    previous = at;
    e[i].index = line_of[at];
    e[i].prefix = run;
  }
}

}  // namespace gsort
