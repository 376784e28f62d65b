// Settling the ties left by a radix sort of image words: the entries of a
// tied segment share their image words 0 .. depth-1 and are in line index
// order. Each segment is sorted by its next word (radix), and what still
// ties by the word after, until the images are spent (every member's
// image ends before the word). Lines whose images are spent and equal
// differ in their key at most by the length of its text (text and 'R'
// keys: the padding hides trailing NULs; exact images are then equal), so
// they are sorted by that length, and what still ties goes on to the next
// key's image, level by level: the keys, then the whole line for the
// last-resort comparison. Only numbers too long for the image
// (kImageDigits, kImageCountCap), keys still tied after kCostlyWordsByImage words whose
// every word reads the whole key (line_image.h's image_words_costly: a
// number parsed again, kept bytes counted, a digest), and 'V' keys (no
// image) go to the full comparison. The result is the order of the full
// comparison, ties by line index, whatever the words tied on
// (line_image.h's property).
//
// Large segments (a common prefix shared by much of the chunk) are
// refined with all threads a step at a time; the others one per thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "src/algo/line_index.h"
#include "src/chunk_sort/entries/key_entry.h"
#include "src/chunk_sort/lines/key_runs.h"
#include "src/core/thread_pool.h"
#include "src/keys/line_compare.h"
#include "src/keys/line_image.h"

namespace gsort {

// Where a line's key lies, so that the refinement reads each image word in
// place rather than finding the key again from the line's start (which
// made a long key's refinement quadratic in its length). A pass over a
// chunk's lines may fill it for one level, with two of its image words
// (CachedWords); the refiner fills it for each later level as a line's segment
// reaches it (a line never goes back to an earlier level). One entry per
// line, so that a refinement step touches one place per line.
struct LineCache {
  uint64_t word[2];  // image words CachedWords::depth and depth + 1 (when a pass filled them)
  uint64_t key_at;   // the key's offset in the chunk's text
  uint32_t key_length;    // kUnplaced: too long to keep (the key is found again each time)
  uint32_t image_length;
};
constexpr uint32_t kUnplaced = ~uint32_t{0};

// What a pass over every line in memory order (first_pass.h, or a
// composite_pass.h that saw many lines tie) left in the cache: for every
// line, where its key at `level` lies and that image's words `depth` and
// `depth + 1`, so that a refinement round reads one place per line rather
// than finding the key and then its bytes, both anywhere in the chunk.
struct CachedWords {
  bool filled = false;
  uint32_t level = 0;
  uint64_t depth = 1;
  bool placed(uint32_t l) const { return filled && l == level; }
  bool holds(uint32_t l, uint64_t d) const { return placed(l) && d >= depth && d <= depth + 1; }
};

// Image words a tied key whose words are costly is refined by before the
// rest of its segment goes to the full comparison.
constexpr uint64_t kCostlyWordsByImage = 3;

// Words a tied text key's segment may move past at once (or as many as
// its depth, if more), those where every member's key holds the same
// bytes (duplicate lines, long shared prefixes): a comparison of bytes
// instead of a round per word.
constexpr uint64_t kSkipWords = 64;

class TieRefiner {
 public:
  // cache: an entry for every line of `lines`, filled as `cached` says,
  // else scratch.
  TieRefiner(const LineSpec& spec, const LineSpan& lines, ThreadPool& pool, LineCache* cache, CachedWords cached);

  // Sorts every segment of e fully (tmp: scratch as large as e).
  void refine(KeyEntry* e, KeyEntry* tmp, std::vector<TieSegment> segments);
  // The same on this thread alone, breadth first: each round loads the
  // next words of every member of every segment in one pass, the lines of
  // members ahead already on their way in (they lie anywhere in the
  // chunk), then settles each segment.
  void refine_serial(KeyEntry* e, KeyEntry* tmp, std::vector<TieSegment> segments);

  // Keys found from their line's start, and numbers parsed, so far: a
  // bounded number per line and level (the tests' measure of the work).
  uint64_t keys_located() const { return located_.load(std::memory_order_relaxed); }

 private:
  // Where line's key at `level` lies, as its cache entry says; at a level
  // whose key is the line itself (the last resort), from the line's start
  // and length unless a pass filled the cache for it: such a level is
  // never placed, so that the refiner writes no entry of a line that ties
  // there (one page fault each where few lines tie: 4 us a tied line of
  // -t, -k2,2 -k1,1n on the H200 host, 2026-12-04).
  LineCache entry(uint32_t level, uint32_t line) const {
    if (!by_line_[level] || cached_.placed(level)) return cache_[line];
    const uint64_t len = lines_.length(line);
    const uint32_t length = len < kUnplaced ? static_cast<uint32_t>(len) : kUnplaced;
    return LineCache{{0, 0}, lines_.starts[line], length, length};
  }
  // Whether line's key at `level` needs no placing (entry() makes it).
  bool needs_no_place(uint32_t level) const { return by_line_[level] && !cached_.placed(level); }
  // The image at `level` of line `line`, through its cache entry where
  // the key is placed; `located` counts a key found or a number parsed.
  LineImageView view_of(uint32_t level, uint32_t line, uint64_t* located) const;
  // Finds the key of `line` at `level` and keeps where it lies.
  void place(uint32_t level, uint32_t line) const;
  // place() for the lines of e[0, n), those ahead already on their way in.
  void place_range(uint32_t level, const KeyEntry* e, uint64_t n) const;
  // place() for every member of the segments whose level the cache does not hold yet.
  void place_members(const KeyEntry* e, const std::vector<TieSegment>& segments, bool parallel);
  // The longest image at `level` among e[0, n) as their cache entries have it (~0 where one is not placed).
  uint64_t placed_longest(const KeyEntry* e, uint64_t n, uint32_t level) const;
  // Whether the segment is left to the full comparison (costly words tied past the first few),
  // unless its images are spent.
  bool by_comparator(const TieSegment& s) const;
  // Moves s.depth past the words of a text key (up to kSkipWords or the depth) in
  // which every member's bytes are the same, or to the end of the keys
  // where all are the same to their end; tried every fourth word.
  void skip_equal_words(const KeyEntry* e, TieSegment& s) const;
  // The rounds of refine_serial, the members placed.
  void refine_rounds(KeyEntry* e, KeyEntry* tmp, std::vector<TieSegment> segments);
  // Loads word `depth` of each member's image at `level` into its prefix;
  // returns the longest image among them.
  uint64_t load_words(KeyEntry* e, uint64_t n, uint32_t level, uint64_t depth, uint64_t* located) const;
  // One step of a segment: sorted by its next word, or (images spent) by
  // key length; the segments left tied go to push(). `parallel`: with all threads.
  template <typename Push>
  void step(KeyEntry* e, KeyEntry* tmp, TieSegment s, bool parallel, Push push);
  // The same once its words are loaded (`longest`: its longest image).
  template <typename Push>
  void settle_loaded(KeyEntry* e, KeyEntry* tmp, const TieSegment& s, uint64_t longest, bool parallel, Push push);
  // A round's loads: every member's next word; longest[k]: segment k's longest image.
  struct Members;
  void load_round(KeyEntry* e, const std::vector<TieSegment>& segments, std::vector<uint64_t>& longest);
  void prefetch_first(const Members& m) const;   // the cache entry, or the line's start
  void prefetch_second(const Members& m) const;  // the bytes the word comes from
  // The members' images at s.level are spent and equal.
  template <typename Push>
  void settle_spent(KeyEntry* e, KeyEntry* tmp, const TieSegment& s, bool parallel, Push push);
  // Stable sort by the full comparison (tmp: n entries of scratch;
  // `parallel`: on the pool's threads, pieces then merges).
  void sort_by_comparator(KeyEntry* e, KeyEntry* tmp, uint64_t n, bool parallel) const;
  void refine_large(KeyEntry* e, KeyEntry* tmp, TieSegment segment, std::vector<TieSegment>& small);

  // A segment at a collated level: sorted by its members' whole heads
  // (computed once a line), runs of equal heads to settle_collated.
  template <typename Push>
  void settle_by_heads(KeyEntry* e, KeyEntry* tmp, const TieSegment& s, bool parallel, Push push);
  // The runs of equal heads of a segment sorted by its heads, each settled by its key.
  template <typename Push>
  void settle_head_runs(KeyEntry* e, KeyEntry* tmp, const TieSegment& s, bool parallel, Push push);
  // settle_by_heads for a round's collated segments on this thread, their
  // members' heads read in one pass.
  template <typename Push>
  void settle_heads_round(KeyEntry* e, KeyEntry* tmp, const std::vector<TieSegment>& segments, Push push);
  // Where each of e[0, n)'s keys at `level` lies (placed, or found).
  void member_keys(const KeyEntry* e, uint64_t n, uint32_t level, std::vector<KeyBytes>& keys) const;
  // The heads of the members (their lines in order) of a round's collated
  // segments, kHeadWords each, the lines of members ahead on their way in.
  void read_heads(const std::vector<TieSegment>& segments, const std::vector<uint32_t>& member_lines,
                  std::vector<uint64_t>& words) const;
  // Whether the members' keys at their level, placed, have the same bytes.
  bool keys_alike(const KeyEntry* e, uint64_t n) const;
  // Whether the members' heads at s.level are equal without reading them:
  // each member's head, as long as its cache entry says, ends within the
  // s.depth words they share (a short key's head that the first pass's
  // words held whole: numbers as text, whose "7" and "-7" share a first
  // level, tie in segments of every copy of both).
  bool heads_known_equal(const KeyEntry* e, const TieSegment& s) const;
  bool collated(const TieSegment& s) const { return line_order(images_[s.level].key) == LineOrder::kCollate; }
  // Whether a level follows this one (the keys', then the last resort's).
  bool followed(uint32_t level) const { return level + 1 < images_.size(); }
  // A collated key's lines ordered by it alone (their heads spent; one
  // key's bytes repeated stay as they are), runs of equal keys then
  // refined by the next key's image. False where no level follows.
  template <typename Push>
  bool settle_collated(KeyEntry* e, KeyEntry* tmp, const TieSegment& s, bool parallel, Push push);
  // Members whose keys at s.level are one key go on to the next key together.
  template <typename Push>
  void as_one_run(KeyEntry* e, const TieSegment& s, bool parallel, Push push);
  // The members, sorted at s.level, go on to the next key in runs of equal prefixes.
  template <typename Push>
  void to_next_level(KeyEntry* e, const TieSegment& s, size_t tasks, Push push);

  LineComparator compare_;
  std::vector<LineImageSpec> images_;  // one per level
  std::vector<bool> by_line_;          // per level: whether its key is the line itself
  const LineSpan& lines_;
  ThreadPool& pool_;
  LineCache* cache_;
  CachedWords cached_;
  std::atomic<uint64_t> located_{0};
};

}  // namespace gsort
