// TieRefiner's round of loads (tie_refine.h, refine_serial): every
// member's next image word, the lines of members ahead already on their
// way in.
#include "src/chunk_sort/lines/tie_refine.h"

#include <algorithm>

namespace gsort {

// Where the members of a round's segments are, one after another, for
// loading them with the lines some members ahead already on their way in.
struct TieRefiner::Members {
  const std::vector<TieSegment>& segments;
  const KeyEntry* e;
  size_t k = 0;
  uint64_t i = 0;
  bool valid() const { return k < segments.size(); }
  void next() {
    if (++i == segments[k].size) {
      ++k;
      i = 0;
    }
  }
  uint32_t line() const { return e[segments[k].begin + i].index; }
  uint32_t level() const { return segments[k].level; }
};

void TieRefiner::prefetch_first(const Members& m) const {
  if (!m.valid()) return;
  if (needs_no_place(m.level())) {
    __builtin_prefetch(lines_.starts + m.line());
  } else {
    __builtin_prefetch(cache_ + m.line());
  }
}

void TieRefiner::prefetch_second(const Members& m) const {
  if (!m.valid()) return;
  const uint32_t line = m.line();
  const uint64_t depth = m.segments[m.k].depth;
  if (cached_.holds(m.level(), depth)) return;  // the entry holds the word
  const LineCache c = entry(m.level(), line);
  __builtin_prefetch(c.key_length == kUnplaced ? lines_.line(line) : lines_.text + c.key_at + 8 * depth);
}

void TieRefiner::load_round(KeyEntry* e, const std::vector<TieSegment>& segments, std::vector<uint64_t>& longest) {
  // Members ahead whose first and second reads are started: 16 and 6
  // before f9b81cd, which raised them (no difference on dev) and whose
  // H200 figures were taken with these.
  constexpr int kFar = 40, kNear = 20;
  longest.assign(segments.size(), 0);
  Members far{segments, e}, near{segments, e};
  for (int a = 0; a < kFar && far.valid(); ++a) {
    prefetch_first(far);
    far.next();
  }
  for (int a = 0; a < kNear && near.valid(); ++a) {
    prefetch_second(near);
    near.next();
  }
  uint64_t located = 0;
  for (size_t k = 0; k < segments.size(); ++k) {
    const TieSegment& s = segments[k];
    const bool load = !by_comparator(s);  // else only whether the images are spent
    for (uint64_t i = 0; i < s.size; ++i) {
      prefetch_first(far);
      if (far.valid()) far.next();
      prefetch_second(near);
      if (near.valid()) near.next();
      const uint64_t length = load ? load_words(e + s.begin + i, 1, s.level, s.depth, &located)
                                   : placed_longest(e + s.begin + i, 1, s.level);
      longest[k] = std::max(longest[k], length);
    }
  }
  located_.fetch_add(located, std::memory_order_relaxed);
}

}  // namespace gsort
