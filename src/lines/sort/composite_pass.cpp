#include "src/lines/sort/composite_pass.h"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstring>
#include <vector>

#include "src/keys/line_image.h"
#include "src/lines/sort/bit_squeeze.h"

namespace gsort {
namespace {

constexpr int kCompositeBits = 96;
constexpr uint64_t kSampleLines = 65536;  // lines whose figures plan the composite first
constexpr uint64_t kMisfitsMost = 65536;  // lines that do not fit it, added to the sample's
__extension__ typedef unsigned __int128 Bits128;  // the composite as it is built (GCC's and Clang's)

// A number image's count bytes (1 to 3 of word 0). For a count under
// 2^16 their top bytes are 0x00 after a class byte whose top bit is set
// (positive, zero; negative under 'r') and 0xFF after one whose top bit is
// clear: bits that only mirror the sign, which the class byte orders
// already. Where a chunk's lines all show it, such bits are not taken.
constexpr uint64_t kCountBytes = 0x00FFFFFF00000000ull;
uint64_t sign_mirror(uint64_t word0) { return (word0 >> 63) != 0 ? 0 : kCountBytes; }

// What one level's slots show over some lines: the bits in which they
// differ from the first line's, the longest image, whether an image does
// not hold its key (line_image.h's image_holds_key), and the distinct
// slots, while few.
struct LevelFigures {
  uint64_t varying[kSlotWords] = {};
  uint64_t longest = 0;
  bool inexact = false;
  uint64_t unmirrored = 0;  // a number level's count bits that were not their sign's mirror in some line
  FewSlots distinct{kFewSlotsMost};
  void add(const LevelFigures& o) {
    for (uint64_t w = 0; w < kSlotWords; ++w) varying[w] |= o.varying[w];
    unmirrored |= o.unmirrored;
    longest = std::max(longest, o.longest);
    inexact |= o.inexact;
    distinct.add_all(o.distinct);
  }
};

// Levels whose images the composite can take in: those with images of
// bytes (the 'R' digest and the 'V' head leave ties to the comparison).
bool composable(const LineImageSpec& level) {
  const LineOrder order = line_order(level.key);
  return order != LineOrder::kRandom && order != LineOrder::kVersion;
}

// One level of one line: its view, once, and its image's bytes in the
// slot (line_image_bytes), up to the word its padding fills, or to `bytes`
// (whole words) where fewer are read: the fill takes only the words its
// plan takes, and a whole line's last resort would copy every byte.
class LevelSlot {
 public:
  LevelSlot(const LineImageSpec& spec, const uint8_t* line, uint64_t len, uint64_t bytes = kSlotBytes)
      : spec_(spec), view_(view_line_image(spec, line, len)), length_(line_image_length(spec, view_)),
        pad_(line_image_padding(spec, view_)) {
    const uint64_t filled = std::min<uint64_t>(bytes, (length_ + 7) / 8 * 8);
    line_image_bytes(spec, view_, bytes_, filled);
  }
  // Word w of the slot; w below the words the slot was made with.
  uint64_t word(uint64_t w) const {
    if (8 * w >= length_) return pad_;
    uint64_t raw;
    std::memcpy(&raw, bytes_ + 8 * w, 8);
    return __builtin_bswap64(raw);
  }
  Slot slot() const {
    Slot s;
    for (uint64_t w = 0; w < kSlotWords; ++w) s.w[w] = word(w);
    return s;
  }
  uint64_t length() const { return length_; }
  bool inexact() const { return !image_holds_key(spec_, view_); }

 private:
  const LineImageSpec& spec_;
  LineImageView view_;
  uint64_t length_, pad_;
  uint8_t bytes_[kSlotBytes];  // [0, min(kSlotBytes, length_ rounded up to a word)) set
};

// Adds line i's slots of levels [0, levels) to the figures, against
// `reference` (line 0's slot words).
void add_line(const std::vector<LineImageSpec>& specs, size_t levels, const LineSpan& lines, uint64_t i,
              const std::vector<uint64_t>& reference, std::vector<LevelFigures>& f) {
  for (size_t l = 0; l < levels; ++l) {
    const LevelSlot level(specs[l], lines.line(i), lines.length(i));
    const Slot slot = level.slot();
    LevelFigures& g = f[l];
    for (uint64_t w = 0; w < kSlotWords; ++w) g.varying[w] |= slot.w[w] ^ reference[l * kSlotWords + w];
    g.longest = std::max(g.longest, level.length());
    g.inexact |= level.inexact();
    g.unmirrored |= (slot.w[0] ^ sign_mirror(slot.w[0])) & kCountBytes;
    g.distinct.add(slot);
  }
}

// How the composite takes one level in: its slot's rank among the
// chunk's few (`ranks`, in rank_bits bits); or the bits `take` of each word of
// its slot below `words`, where every line's slot must agree with the
// reference (line 0's) on the bits `constant`, and an exact level's image
// must be exact and no longer than `longest` (a line that does not was not
// seen when the plan was made from a sample); or (text) its first
// `raw_bits` bits as they are, which assume nothing but, where the level
// is taken whole, that its image is exact and no longer than `longest`.
struct LevelPlan {
  size_t level = 0;
  const FewSlots* ranks = nullptr;
  int rank_bits = 0, rank_shift = 0;  // the rank's top rank_bits: shifted right by rank_shift
  uint64_t words = 0;
  BitSqueeze take[kSlotWords];
  uint64_t constant[kSlotWords] = {};
  uint64_t mirrored = 0;  // bits of word 0 not taken: every line's must mirror its sign (a number's)
  bool exact = false;
  uint64_t longest = 0;
  int raw_bits = 0;
};

struct Composite {
  std::vector<LevelPlan> levels;
  int bits = 0;
  TieStart start;
};

int bits_of_ranks(uint64_t distinct) { return distinct <= 1 ? 0 : 64 - __builtin_clzll(distinct - 1); }

// A text level (not ranked): its image's first bits as they are, the whole
// image where it is exact and fits what is left (8 bits a byte, its
// longest), else as many as are left, the last level. The bits of text
// that vary over a sample would say more, but text varies in bits no
// sample shows (a short number leaves padding where digits stood); a
// number's image, a month's, do not.
bool plan_raw_level(LevelPlan p, Composite& c) {
  const int left = kCompositeBits - c.bits;
  const bool whole = p.exact && 8 * p.longest <= static_cast<uint64_t>(left);
  p.raw_bits = whole ? static_cast<int>(8 * p.longest) : left;
  p.exact = whole;  // a line longer than the longest does not fit the bits taken
  c.bits += p.raw_bits;
  c.levels.push_back(p);
  if (!whole) c.start = TieStart{static_cast<uint64_t>(p.raw_bits / 64), static_cast<uint32_t>(p.level), false};
  return whole;
}

// The plan of level l, the bits left in `c`; false where the level is the
// last one taken in (c.start then says where its ties are refined from).
bool plan_level(const LineImageSpec& spec, const LevelFigures& f, size_t l, Composite& c) {
  const uint32_t level = static_cast<uint32_t>(l);
  if (!composable(spec) || c.bits == kCompositeBits) {
    c.start = TieStart{0, level, false};
    return false;
  }
  LevelPlan p;
  p.level = l;
  p.exact = !f.inexact && f.longest <= kSlotBytes;
  p.longest = f.longest;
  const bool text = line_order(spec.key) == LineOrder::kText;
  if (!p.exact) return plan_raw_level(p, c);
  // Past an exact image's longest, every line's slot is its padding.
  const uint64_t words = (f.longest + 7) / 8;
  int level_bits = 0;
  for (uint64_t w = 0; w < words; ++w) level_bits += __builtin_popcountll(f.varying[w]);  // (mirrored bits counted: a rank wins more often)
  const int rank_width = bits_of_ranks(f.distinct.size());
  const int left = kCompositeBits - c.bits;
  if (!f.distinct.over() && rank_width < (text ? static_cast<int>(8 * f.longest) : level_bits)) {
    // Short of room, the top bits of the rank: tied lines' images may
    // then agree on nothing, and are refined from the level's start.
    p.ranks = &f.distinct;
    p.rank_bits = std::min(rank_width, left);
    p.rank_shift = rank_width - p.rank_bits;
    c.bits += p.rank_bits;
    c.levels.push_back(p);
    if (p.rank_shift == 0) return true;
    c.start = TieStart{0, level, false};
    return false;
  }
  if (text) return plan_raw_level(p, c);
  // A longer image fits while it ends within the words taken (a number
  // with a digit more than the sample's longest, say): the checks of
  // its constant bits cover the rest.
  p.longest = 8 * words;
  if (reads_number(spec.key)) p.mirrored = kCountBytes & ~f.unmirrored;
  for (uint64_t w = 0; w < words; ++w) {
    const uint64_t taken = w == 0 ? f.varying[w] & ~p.mirrored : f.varying[w];
    const int varying = __builtin_popcountll(taken);
    const int take = std::min(varying, kCompositeBits - c.bits);
    p.take[w] = BitSqueeze(taken, take);
    p.constant[w] = ~f.varying[w];
    p.words = w + 1;
    c.bits += take;
    if (take < varying) {  // short of room: tied lines agree on words [0, w), refined from word w
      c.levels.push_back(p);
      c.start = TieStart{w, level, false};
      return false;
    }
  }
  c.levels.push_back(p);
  return true;
}

// The plan, level after level, and where ties are refined from.
Composite compose(const std::vector<LineImageSpec>& specs, const std::vector<LevelFigures>& figures) {
  Composite c;
  for (size_t l = 0; l < figures.size(); ++l) {
    if (!plan_level(specs[l], figures[l], l, c)) return c;
  }
  const size_t levels = figures.size();
  c.start = levels < specs.size() ? TieStart{0, static_cast<uint32_t>(levels), false} : TieStart{0, 0, true};
  return c;
}

// Line i's composite image, left-aligned in (hi, lo); false where the line
// does not fit the plan.
bool composite_entry(const std::vector<LineImageSpec>& specs, const Composite& c, const uint64_t* reference,
                     const LineSpan& lines, uint64_t i, WideEntry& entry) {
  Bits128 acc = 0;
  for (const LevelPlan& p : c.levels) {
    const uint64_t words = p.ranks ? kSlotWords : p.raw_bits > 0 ? (static_cast<uint64_t>(p.raw_bits) + 63) / 64 : p.words;
    const LevelSlot slot(specs[p.level], lines.line(i), lines.length(i), 8 * words);
    if (p.exact && (slot.length() > p.longest || slot.inexact())) return false;
    if (p.raw_bits > 0) {  // whole words, then the top of the next
      for (int taken = 0, w = 0; taken < p.raw_bits; taken += 64, ++w) {
        const int bits = std::min(p.raw_bits - taken, 64);
        const uint64_t word = slot.word(static_cast<uint64_t>(w));
        acc = acc << bits | (bits == 64 ? word : word >> (64 - bits));
      }
      continue;
    }
    if (p.ranks) {
      const uint32_t rank = p.ranks->find(slot.slot());
      if (rank == FewSlots::kMissing) return false;
      acc = acc << p.rank_bits | rank >> p.rank_shift;
      continue;
    }
    const uint64_t* ref = reference + p.level * kSlotWords;
    for (uint64_t w = 0; w < p.words; ++w) {
      const uint64_t word = slot.word(w);
      if ((word ^ ref[w]) & p.constant[w]) return false;
      if (w == 0 && ((word ^ sign_mirror(word)) & p.mirrored) != 0) return false;
      acc = acc << p.take[w].bits() | p.take[w](word);
    }
  }
  acc <<= kCompositeBits - c.bits;  // c.bits never exceeds the 96
  entry = WideEntry{static_cast<uint64_t>(acc >> 32), static_cast<uint32_t>(acc), static_cast<uint32_t>(i)};
  return true;
}

// The figures of every step-th line, on the pool's threads.
std::vector<LevelFigures> figures_of(ThreadPool& pool, const std::vector<LineImageSpec>& specs, size_t levels,
                                     const LineSpan& lines, uint64_t step, const std::vector<uint64_t>& reference) {
  const uint64_t count = (lines.count + step - 1) / step;
  const size_t tasks = count < 4096 ? 1 : pool.balanced_task_count();
  std::vector<std::vector<LevelFigures>> found(tasks, std::vector<LevelFigures>(levels));
  pool.parallel_for(tasks, [&](size_t t) {
    for (uint64_t k = split_point(count, tasks, t), end = split_point(count, tasks, t + 1); k < end; ++k) {
      add_line(specs, levels, lines, k * step, reference, found[t]);
    }
  });
  std::vector<LevelFigures> figures(levels);
  for (const std::vector<LevelFigures>& f : found) {
    for (size_t l = 0; l < levels; ++l) figures[l].add(f[l]);
  }
  return figures;
}

bool reaches_past_first(const TieStart& start) { return start.level > 0 || start.settled; }

// The lines a fill found not to fit its plan: listed while few, else only counted.
struct Misfits {
  std::vector<uint64_t> lines;
  bool many = false;
  bool none() const { return lines.empty() && !many; }
};

// Every line's entry by the plan; the lines that do not fit it are left
// unwritten and listed (past kMisfitsMost, the fill stops).
Misfits fill_entries(ThreadPool& pool, const std::vector<LineImageSpec>& specs, const Composite& c,
                     const LineSpan& lines, const std::vector<uint64_t>& reference, WideEntry* entries) {
  const uint64_t n = lines.count;
  const size_t tasks = n < 4096 ? 1 : pool.balanced_task_count();
  std::vector<std::vector<uint64_t>> found(tasks);
  std::atomic<uint64_t> count{0};
  pool.parallel_for(tasks, [&](size_t t) {
    for (uint64_t i = split_point(n, tasks, t), end = split_point(n, tasks, t + 1); i < end; ++i) {
      if ((i & 4095) == 0 && count.load(std::memory_order_relaxed) > kMisfitsMost) return;  // refilled anyway
      if (composite_entry(specs, c, reference.data(), lines, i, entries[i])) continue;
      if (count.fetch_add(1, std::memory_order_relaxed) >= kMisfitsMost) return;
      found[t].push_back(i);
    }
  });
  Misfits m;
  m.many = count.load() > kMisfitsMost;
  for (const std::vector<uint64_t>& f : found) m.lines.insert(m.lines.end(), f.begin(), f.end());
  return m;
}

void rank_few(std::vector<LevelFigures>& figures) {
  for (LevelFigures& f : figures) {
    if (!f.distinct.over()) f.distinct.rank();
  }
}

// A number's class byte (its sign, 0x40, 0x80 or 0xC0, and -h's unit)
// and the low bits of its digit count take values a sample often misses:
// a zero among positive numbers, a short number among long ones. Counted
// as varying, they cost a few of the 96 bits and spare a second fill.
void seed_number_levels(const std::vector<LineImageSpec>& specs, const std::vector<uint64_t>& reference,
                        std::vector<LevelFigures>& figures) {
  for (size_t l = 0; l < figures.size(); ++l) {
    if (!reads_number(specs[l].key)) continue;
    const uint64_t ref = reference[l * kSlotWords];
    const uint64_t class_bits = specs[l].key.human ? 0xFF : 0xC0;
    // The count's low byte in the reference, as a count: the count bytes
    // are complemented exactly where they mirror a clear top bit.
    const uint64_t low = ((ref ^ sign_mirror(ref)) >> 32) & 0xFF;
    const uint64_t seen = low | ((figures[l].varying[0] >> 32) & 0xFF);
    const uint64_t count_bits = seen == 0 ? 0 : (uint64_t{2} << (63 - __builtin_clzll(seen))) - 1;
    figures[l].varying[0] |= class_bits << 56 | count_bits << 32;
  }
}

}  // namespace

std::optional<TieStart> composite_pass(ThreadPool& pool, const LineSpec& spec, const LineSpan& lines,
                                       WideEntry* entries, bool* replanned) {
  *replanned = false;
  const uint64_t n = lines.count;
  const std::vector<LineImageSpec> specs = spec.images();
  // A first key that is the line itself (a log line sorted whole) is
  // rarely shorter than the slot: the sample would say so for nothing.
  if (n == 0 || specs.size() < 2 || image_is_line_itself(specs[0]) || !composable(specs[0])) return {};
  const size_t levels = std::min<size_t>(specs.size(), kSlotLevels);
  std::vector<uint64_t> reference(levels * kSlotWords);
  for (size_t l = 0; l < levels; ++l) {
    const Slot slot = LevelSlot(specs[l], lines.line(0), lines.length(0)).slot();
    std::copy(slot.w, slot.w + kSlotWords, reference.begin() + static_cast<std::ptrdiff_t>(l * kSlotWords));
  }
  // Planned from a sample. Lines that do not fit the plan widen it (their
  // figures added to the sample's: every line that fitted still fits) and
  // every line is filled again; where they are many, the plan is made from
  // every line, of the levels the sample's plan reached (the rest would
  // cost a pass for nothing).
  const uint64_t step = std::max<uint64_t>(1, n / kSampleLines);
  std::vector<LevelFigures> figures = figures_of(pool, specs, levels, lines, step, reference);
  seed_number_levels(specs, reference, figures);
  rank_few(figures);
  Composite c = compose(specs, figures);
  if (!reaches_past_first(c.start)) return {};
  const Misfits misfits = fill_entries(pool, specs, c, lines, reference, entries);
  if (misfits.none()) return c.start;
  *replanned = true;
  if (misfits.many) {
    const size_t reached = c.start.settled ? levels : std::min<size_t>(levels, c.start.level + 1);
    figures = figures_of(pool, specs, reached, lines, 1, reference);
  } else {
    for (uint64_t i : misfits.lines) add_line(specs, levels, lines, i, reference, figures);
  }
  seed_number_levels(specs, reference, figures);
  rank_few(figures);
  c = compose(specs, figures);
  if (!reaches_past_first(c.start)) return {};
  if (!fill_entries(pool, specs, c, lines, reference, entries).none()) return {};  // cannot be: the plan only widened
  return c.start;
}

}  // namespace gsort
