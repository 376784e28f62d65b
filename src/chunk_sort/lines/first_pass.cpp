#include "src/chunk_sort/lines/first_pass.h"

#include <cstring>
#include <limits>
#include <vector>

#include "src/algo/bit_squeeze.h"
#include "src/keys/image_slot.h"
#include "src/keys/line_image.h"

namespace gsort {
namespace {

// What the pass finds over its lines: the bits in which words 0, 1 and 2
// (and the next level's word 0) differ from line 0's, the longest first
// image, and whether any key defeats the exact shortcut. A task keeps its
// own in locals and stores them once: updated in a vector of the tasks'
// for every line, across the calls that make a collated head, they shared
// cache lines with the neighbouring tasks' (whole log lines in
// en_US.UTF-8: first pass 0.32 s against C's 0.05 on the H100 host's 16
// threads, 2026-12-06, where one thread's lines cost 2.4x C's).
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
  return key_spans_whole_line(k) && line_order(k) == LineOrder::kText && k.keep == kKeepAll;
}

// The varying bits of image words 0, 1 and 2 end to end, the first 96 of
// them, left-aligned in an entry's (hi, lo): text of seven varying bits a
// byte (digits of four) puts more of each key in the 96 than whole words
// would, so that fewer lines tie and go on to the refinement, which reads
// each tied line again, wherever it lies.
class PackedWords {
 public:
  explicit PackedWords(const Figures& all) {
    const uint64_t varying[3] = {all.v0, all.v1, all.v2};
    int left = 96;
    for (int k = 0; k < 3; ++k) {
      squeeze_[k] = BitSqueeze(varying[k], std::min(64, left));
      left -= squeeze_[k].bits();
      if (whole_ == k && squeeze_[k].bits() == __builtin_popcountll(varying[k])) ++whole_;
    }
  }
  // Lines whose packed bits are equal have equal words 0 .. whole() - 1.
  int whole() const { return whole_; }
  // Whether word k has bits in the 96.
  bool uses(int k) const { return squeeze_[k].bits() > 0; }
  void set(WideEntry& e, uint64_t w0, uint64_t w1, uint64_t w2) const {
    const uint64_t w[3] = {w0, w1, w2};
    __extension__ using Bits128 = unsigned __int128;
    Bits128 bits = 0;
    int used = 0;
    for (int k = 0; k < 3; ++k) {
      const int b = squeeze_[k].bits();
      if (b == 0) continue;
      bits = bits << b | squeeze_[k](w[k]);
      used += b;
    }
    bits <<= 96 - used;
    e.hi = static_cast<uint64_t>(bits >> 32);
    e.lo = static_cast<uint32_t>(bits);
  }

 private:
  BitSqueeze squeeze_[3];
  int whole_ = 0;
};

// The 96 bits chosen: the packed words of the first image, or, where every
// first image fits word 0 exactly and a next level follows, ExactThenNext.
struct Bits96 {
  TieStart start;
  bool exact_then_next;
};

Bits96 choose_bits(const Figures& all, const PackedWords& packed, const LineKey& key, bool next_level) {
  const bool exact = !all.inexact && !image_leaves_ties_to_comparison(key);
  if (exact && all.longest <= 8 && next_level) return Bits96{TieStart{0, 1, false}, true};
  const uint64_t whole = static_cast<uint64_t>(packed.whole());
  // Equal bits are equal images, and (no level after) equal keys: nothing to refine.
  const bool settled = exact && all.longest <= 8 * whole && !next_level;
  return Bits96{TieStart{whole, 0, settled}, false};
}

// The second pass: each entry's 96 bits packed from its word 0 (in hi) and
// word(i, w) for words 1 and 2.
template <typename Word>
void pack_bits(ThreadPool& pool, uint64_t n, size_t tasks, const PackedWords& packed, WideEntry* entries,
               const Word& word) {
  const bool w1 = packed.uses(1), w2 = packed.uses(2);
  pool.parallel_for(tasks, [&](size_t t) {
    for (uint64_t i = split_point(n, tasks, t), end = split_point(n, tasks, t + 1); i < end; ++i) {
      packed.set(entries[i], entries[i].hi, w1 ? word(i, 1) : 0, w2 ? word(i, 2) : 0);
    }
  });
}

struct Words {
  uint64_t w[3];
  uint64_t next;  // the next level's word 0
};

// Bytes [8w, 8w + 8) of p[0, len) as a big-endian word, zero past len.
inline uint64_t word_of_line(const uint8_t* p, uint64_t len, uint64_t w) {
  const uint64_t first = 8 * w;
  if (first + 8 <= len) return big_endian_word(p + first);
  uint8_t tail[8] = {};
  if (first < len) std::memcpy(tail, p + first, len - first);
  return big_endian_word(tail);
}

// Words 1 and 2 of a line kept in a spare entry for the pack (hi; lo and
// index), and read back.
WideEntry later_words(uint64_t w1, uint64_t w2) {
  return WideEntry{w1, static_cast<uint32_t>(w2 >> 32), static_cast<uint32_t>(w2)};
}
uint64_t spare_word(const WideEntry* spare, uint64_t i, int w) {
  return w == 1 ? spare[i].hi : uint64_t{spare[i].lo} << 32 | spare[i].index;
}

// Whether the first pass keeps each line's key place and words 1 and 2 in
// the cache (first_pass_fills_cache): not for a key that is the whole line,
// as text, or collated with no key after it (its words 1 and 2 then wait
// in spare for the pack, where a next level's word would).
bool fills_cache(const LineKey& first_key, bool next_level) {
  if (whole_line_text(first_key)) return false;
  return !(key_spans_whole_line(first_key) && line_order(first_key) == LineOrder::kCollate && !next_level);
}

// Whether every line's image is its own bytes (complemented for 'r'): the
// whole line, no 'f', 'd' or 'i', and no key after it.
bool plain_whole_line(const LineKey& k, bool next_level) {
  return whole_line_text(k) && !k.fold && !next_level;
}

// The first pass where plain_whole_line holds: each line's words read
// straight from its bytes, no view made. Words 1 and 2 go into spare (hi;
// lo and index) for the second pass, which then reads no text again.
Figures whole_line_words(ThreadPool& pool, const LineKey& key, const LineSpan& lines, size_t tasks,
                         WideEntry* entries, WideEntry* spare) {
  const uint64_t n = lines.count;
  const uint64_t flip = key.reverse ? ~uint64_t{0} : 0;
  const auto words = [&](uint64_t i, uint64_t* w) {
    const uint8_t* p = lines.line(i);
    const uint64_t len = lines.length(i);
    for (uint64_t k = 0; k < 3; ++k) w[k] = word_of_line(p, len, k) ^ flip;
    return len;
  };
  uint64_t first[3];
  words(0, first);
  std::vector<Figures> figures(tasks);
  pool.parallel_for(tasks, [&](size_t t) {
    Figures f;  // (stored once: see Figures)
    for (uint64_t i = split_point(n, tasks, t), end = split_point(n, tasks, t + 1); i < end; ++i) {
      uint64_t w[3];
      const uint64_t len = words(i, w);
      f.v0 |= w[0] ^ first[0], f.v1 |= w[1] ^ first[1], f.v2 |= w[2] ^ first[2];
      f.longest = std::max(f.longest, len);
      f.inexact |= len > 0 && lines.line(i)[len - 1] == 0;  // image_holds_key: a NUL the padding hides
      entries[i] = WideEntry{w[0], 0, static_cast<uint32_t>(i)};
      spare[i] = later_words(w[1], w[2]);
    }
    figures[t] = f;
  });
  Figures all;
  for (const Figures& f : figures) all.add(f);
  return all;
}

// Each entry's bits as `bits` takes them, from its word 0 (in hi) and the
// next level's word 0 (spare's hi).
void set_exact_then_next(ThreadPool& pool, uint64_t n, size_t tasks, const ExactThenNext& bits, WideEntry* entries,
                         const WideEntry* spare) {
  pool.parallel_for(tasks, [&](size_t t) {
    for (uint64_t i = split_point(n, tasks, t), end = split_point(n, tasks, t + 1); i < end; ++i) {
      bits.set(entries[i], entries[i].hi, spare[i].hi);
    }
  });
}

}  // namespace

bool first_pass_fills_cache(const LineSpec& spec) {
  const std::vector<LineImageSpec> levels = spec.images();
  return fills_cache(levels[0].key, levels.size() > 1);
}

TieStart first_pass(ThreadPool& pool, const LineSpec& spec, const LineSpan& lines, WideEntry* entries,
                    WideEntry* spare, LineCache* cache, CachedWords* cached) {
  const uint64_t n = lines.count;
  const std::vector<LineImageSpec> levels = spec.images();
  const LineImageSpec& image = levels[0];
  const bool next_level = levels.size() > 1;
  const size_t tasks = n < 4096 ? 1 : pool.balanced_task_count();
  if (plain_whole_line(image.key, next_level)) {
    *cached = CachedWords{false, 0, 1};
    const Figures all = whole_line_words(pool, image.key, lines, tasks, entries, spare);
    const PackedWords packed(all);
    pack_bits(pool, n, tasks, packed, entries, [spare](uint64_t i, int w) { return spare_word(spare, i, w); });
    return choose_bits(all, packed, image.key, false).start;
  }
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
  // Where no next level takes spare, words 1 and 2 wait there for the pack,
  // which would otherwise make each line's image again for each word (a
  // collated line's head, a folded line's copy).
  const bool keep_cache = fills_cache(image.key, next_level);
  const bool words_in_spare = !keep_cache && !next_level;
  uint64_t first_length = 0;
  const Words first = words_of(0, nullptr, &first_length, true);
  std::vector<Figures> figures(tasks);
  pool.parallel_for(tasks, [&](size_t t) {
    constexpr uint64_t kMost = std::numeric_limits<uint32_t>::max();
    Figures f;  // (stored once: see Figures)
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
      if (words_in_spare) spare[i] = later_words(w.w[1], w.w[2]);
      if (keep_cache) {
        cache[i] = LineCache{{w.w[1], w.w[2]}, static_cast<uint64_t>(v.key - lines.text),
                             static_cast<uint32_t>(v.len), static_cast<uint32_t>(length)};
      }
    }
    figures[t] = f;
  });
  Figures all;
  for (const Figures& f : figures) all.add(f);
  *cached = CachedWords{keep_cache && all.fits, 0, 1};
  const PackedWords packed(all);
  const Bits96 chosen = choose_bits(all, packed, image.key, next_level);
  const TieStart start = chosen.start;
  if (chosen.exact_then_next) {
    set_exact_then_next(pool, n, tasks, ExactThenNext(all.v0, all.vn), entries, spare);
    return start;
  }
  // Words 1 and 2: kept in the cache or spare, or read from the line again.
  pack_bits(pool, n, tasks, packed, entries, [&](uint64_t i, int w) {
    if (keep_cache) return cache[i].word[w - 1];
    if (words_in_spare) return spare_word(spare, i, w);
    return line_image_word(image, lines.line(i), lines.length(i), w);
  });
  return start;
}

}  // namespace gsort
