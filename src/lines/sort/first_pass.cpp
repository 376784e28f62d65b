#include "src/lines/sort/first_pass.h"

#include <limits>
#include <vector>

#include "src/keys/line_image.h"
#include "src/algo/bit_squeeze.h"

namespace gsort {
namespace {

// What the pass finds over its lines: the bits in which words 0, 1 and 2
// (and the next level's word 0) differ from line 0's, the longest first
// image, and whether any key defeats the exact shortcut.
struct Figures {
  uint64_t v0 = 0, v1 = 0, v2 = 0, vn = 0;
  uint64_t longest = 0;
  bool inexact = false;   // an image that does not hold its key (line_image.h's image_holds_key)
  bool fits = true;       // the cache's 32-bit figures hold every line's
  void add(const Figures& o) {
    v0 |= o.v0, v1 |= o.v1, v2 |= o.v2, vn |= o.vn;
    longest = std::max(longest, o.longest);
    inexact |= o.inexact, fits &= o.fits;
  }
};

// Where every first image fits word 0 exactly and a next level follows: the
// first key's varying bits, then as many of the next level's word 0's as
// are left of the 96, left-aligned in (hi, lo). Lines tie on them only when
// their first keys are equal, so the whole of the 96 bits beyond the first
// key's few varying bits (a column of a few words) orders the next key.
class ExactThenNext {
 public:
  ExactThenNext(uint64_t v0, uint64_t vn) : first_(v0, 64), next_(vn, std::min(64, 96 - first_.bits())) {}
  void set(WideEntry& e, uint64_t w0, uint64_t next) const {
    const int b0 = first_.bits(), bn = next_.bits(), used = b0 + bn;
    const uint64_t f = first_(w0), x = next_(next);
    if (used <= 64) {  // all in hi
      const uint64_t word = (b0 == 0 ? 0 : f << bn) | x;  // b0 > 0 keeps bn below 64
      e.hi = used == 0 ? 0 : word << (64 - used);
      e.lo = 0;
      return;
    }
    // hi: the top 64 of the `used` bits; lo: the other r at its top. bn >= r as b0 <= 64.
    const int r = used - 64;
    e.hi = (b0 == 0 ? 0 : f << (64 - b0)) | (x >> r);
    e.lo = static_cast<uint32_t>((x & ((uint64_t{1} << r) - 1)) << (32 - r));
  }

 private:
  BitSqueeze first_, next_;
};

// Whether the key is the whole line, its bytes compared as they are.
bool whole_line_text(const LineKey& k) {
  return k.start_field == 0 && k.start_char == 0 && k.end_field == kToLineEnd && !k.skip_start_blanks &&
         line_order(k) == LineOrder::kText && k.keep == kKeepAll;
}

// Which 96 bits, and where their ties are refined from: words hi_word and
// lo_word of the first image (lo_word 3: the next level's word 0; -1: none).
struct Bits96 {
  TieStart start;
  int hi_word;
  int lo_word;
};

Bits96 choose_bits(const Figures& all, const LineKey& key, bool next_level) {
  const bool exact = all.longest <= 8 && !all.inexact && !image_leaves_ties_to_comparison(key);
  if (exact) return next_level ? Bits96{TieStart{0, 1, false}, 0, 3} : Bits96{TieStart{0, 0, true}, 0, -1};
  if (all.v0 == 0) return Bits96{TieStart{2, 0, false}, 1, 2};
  return Bits96{TieStart{1, 0, false}, 0, 1};
}

struct Words {
  uint64_t w[3];
  uint64_t next;  // the next level's word 0
};

}  // namespace

TieStart first_pass(ThreadPool& pool, const LineSpec& spec, const LineSpan& lines, WideEntry* entries,
                    WideEntry* spare, LineCache* cache, CachedWords* cached) {
  const uint64_t n = lines.count;
  const std::vector<LineImageSpec> levels = spec.images();
  const LineImageSpec& image = levels[0];
  const bool next_level = levels.size() > 1;
  // The next level's word is wanted only while every first image fits a
  // word (then the 96 bits may take it): once a line's does not, no more.
  const auto words_of = [&](uint64_t i, LineImageView* view, uint64_t* length, bool want_next) {
    const LineImageView v = view_line_image(image, lines.line(i), lines.length(i));
    if (view) *view = v;
    *length = line_image_length(image, v);
    // Words past the image are its padding.
    const uint64_t pad = line_image_padding(image, v);
    Words w{{line_image_word(image, v, 0), *length > 8 ? line_image_word(image, v, 1) : pad,
             *length > 16 ? line_image_word(image, v, 2) : pad},
            0};
    if (next_level && want_next && *length <= 8) w.next = line_image_word(levels[1], lines.line(i), lines.length(i), 0);
    return w;
  };
  // A key that is the whole line is found again for nothing: its place and
  // words 1 and 2 are not kept for the ties (the cache's writes are fresh
  // memory, a third of the pass's), and the refiner finds the few it needs.
  const bool keep_cache = !whole_line_text(image.key);
  uint64_t first_length = 0;
  const Words first = words_of(0, nullptr, &first_length, true);
  const size_t tasks = n < 4096 ? 1 : pool.balanced_task_count();
  std::vector<Figures> figures(tasks);
  pool.parallel_for(tasks, [&](size_t t) {
    constexpr uint64_t kMost = std::numeric_limits<uint32_t>::max();
    Figures& f = figures[t];
    for (uint64_t i = split_point(n, tasks, t), end = split_point(n, tasks, t + 1); i < end; ++i) {
      LineImageView v;
      uint64_t length = 0;
      const Words w = words_of(i, &v, &length, f.longest <= 8);
      f.v0 |= w.w[0] ^ first.w[0], f.v1 |= w.w[1] ^ first.w[1], f.v2 |= w.w[2] ^ first.w[2];
      f.vn |= w.next ^ first.next;
      f.longest = std::max(f.longest, length);
      f.inexact |= !image_holds_key(image, v);
      f.fits &= v.len <= kMost && length <= kMost;
      entries[i] = WideEntry{w.w[0], 0, static_cast<uint32_t>(i)};
      if (next_level) spare[i].hi = w.next;
      if (keep_cache) {
        cache[i] = LineCache{{w.w[1], w.w[2]}, static_cast<uint64_t>(v.key - lines.text),
                             static_cast<uint32_t>(v.len), static_cast<uint32_t>(length)};
      }
    }
  });
  Figures all;
  for (const Figures& f : figures) all.add(f);
  *cached = CachedWords{keep_cache && all.fits, 0, 1};
  const Bits96 chosen = choose_bits(all, image.key, next_level);
  const TieStart start = chosen.start;
  const int hi_word = chosen.hi_word, lo_word = chosen.lo_word;
  if (lo_word == 3) {
    const ExactThenNext bits(all.v0, all.vn);
    pool.parallel_for(tasks, [&](size_t t) {
      for (uint64_t i = split_point(n, tasks, t), end = split_point(n, tasks, t + 1); i < end; ++i) {
        bits.set(entries[i], entries[i].hi, spare[i].hi);
      }
    });
    return start;
  }
  const BitSqueeze squeeze(lo_word == 1 ? all.v1 : lo_word == 2 ? all.v2 : 0, 32);
  // Words 1 and 2: kept in the cache, or read from the line again.
  const auto word = [&](uint64_t i, int w) {
    return keep_cache ? cache[i].word[w - 1] : line_image_word(image, lines.line(i), lines.length(i), w);
  };
  pool.parallel_for(tasks, [&](size_t t) {
    for (uint64_t i = split_point(n, tasks, t), end = split_point(n, tasks, t + 1); i < end; ++i) {
      const uint64_t lo = lo_word > 0 ? word(i, lo_word) : 0;
      if (hi_word == 1) entries[i].hi = word(i, 1);
      entries[i].lo = lo_word < 0 ? 0 : squeeze.top32(lo);
    }
  });
  return start;
}

}  // namespace gsort
