#include "src/chunk_sort/lines/composite_plan.h"

namespace gsort {
namespace {

int bits_of_ranks(uint64_t distinct) { return distinct <= 1 ? 0 : 64 - __builtin_clzll(distinct - 1); }

// A text level (not ranked) whose varying bits are no fewer than its
// bytes': its image's first bits as they are, the whole image where it is
// exact and fits what is left (8 bits a byte, its longest), else as many
// as are left, the last level. Text with fewer varying bits (letters, a
// common prefix) is squeezed as a number is (plan_level).
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

// A rank's top `left` bits of `rank_width` (all where they fit); false
// where the level is the last taken in: its tied lines' ranks may then
// agree on nothing, and are refined from the level's start.
bool plan_ranked_level(LevelPlan p, const LevelFigures& f, int rank_width, Composite& c) {
  const int left = kCompositeBits - c.bits;
  p.ranks = &f.distinct;
  p.rank_bits = std::min(rank_width, left);
  p.rank_shift = rank_width - p.rank_bits;
  c.bits += p.rank_bits;
  c.levels.push_back(p);
  if (p.rank_shift == 0) return true;
  c.start = TieStart{0, static_cast<uint32_t>(p.level), false};
  return false;
}

// A collated level: its keys' ranks where they are few and short
// (collated_ranks.h); else the first bits of its heads, the last level
// (heads that differ order their lines; equal ones are refined from the
// level's start), so that a whole line's last resort after a ranked key
// is read in memory order here, not line by line in its tied segments.
bool plan_collated_level(LevelPlan p, const LevelFigures& f, Composite& c) {
  if (f.distinct.over() || f.inexact) {
    plan_raw_level(p, c);  // (not exact: the last)
    c.start = TieStart{0, static_cast<uint32_t>(p.level), false};
    return false;
  }
  p.exact = true;  // a line whose key is too long for its slot does not fit
  p.longest = kSlotBytes;
  return plan_ranked_level(p, f, bits_of_ranks(f.distinct.size()), c);
}

// The plan of level l, the bits left in `c`; false where the level is the
// last one taken in (c.start then says where its ties are refined from).
bool plan_level(const LineImageSpec& spec, const LevelFigures& f, size_t l, Composite& c, bool squeeze_text,
                bool rank_many) {
  const uint32_t level = static_cast<uint32_t>(l);
  if (!composable(spec) || c.bits == kCompositeBits) {
    c.start = TieStart{0, level, false};
    return false;
  }
  LevelPlan p;
  p.level = l;
  if (ranked_by_collation(spec)) return plan_collated_level(p, f, c);
  p.exact = !f.inexact && f.longest <= kSlotBytes;
  p.longest = f.longest;
  const bool text = line_order(spec.key) == LineOrder::kText;
  if (!p.exact) return plan_raw_level(p, c);
  // Past an exact image's longest, every line's slot is its padding.
  const uint64_t words = (f.longest + 7) / 8;
  int level_bits = 0;
  for (uint64_t w = 0; w < words; ++w) level_bits += __builtin_popcountll(f.varying[w]);  // (mirrored bits counted: a rank wins more often)
  const int rank_width = bits_of_ranks(f.distinct.size());
  const bool few = f.distinct.size() <= kFewSlotsMost || rank_many;
  if (!f.distinct.over() && few && rank_width < (text ? static_cast<int>(8 * f.longest) : level_bits)) {
    return plan_ranked_level(p, f, rank_width, c);
  }
  // Text whose varying bits (seed_text_levels) are as many as its bytes'
  // is taken as it is: no line can miss such a plan but by its length.
  if (text && (!squeeze_text || level_bits >= static_cast<int>(8 * f.longest))) return plan_raw_level(p, c);
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

}  // namespace

std::vector<LevelFigures> empty_figures(const std::vector<LineImageSpec>& specs, size_t levels) {
  std::vector<LevelFigures> figures(levels);
  for (size_t l = 0; l < levels; ++l) {
    if (ranks_many(specs[l])) figures[l].distinct = FewSlots(kManySlotsMost);
  }
  return figures;
}

// The plan, level after level, and where ties are refined from.
Composite compose(const std::vector<LineImageSpec>& specs, const std::vector<LevelFigures>& figures,
                  bool squeeze_text, bool rank_many) {
  Composite c;
  for (size_t l = 0; l < figures.size(); ++l) {
    if (!plan_level(specs[l], figures[l], l, c, squeeze_text, rank_many)) return c;
  }
  const size_t levels = figures.size();
  c.start = levels < specs.size() ? TieStart{0, static_cast<uint32_t>(levels), false} : TieStart{0, 0, true};
  return c;
}

int untaken_bits(const Composite& c, const std::vector<LevelFigures>& figures) {
  if (c.start.settled) return 0;
  const auto varying = [&](size_t l, uint64_t first_bits) {
    int bits = 0;
    for (uint64_t w = 0; w < kSlotWords; ++w) {
      const uint64_t before = first_bits <= 64 * w ? 0 : first_bits >= 64 * (w + 1) ? ~uint64_t{0} : ~(~uint64_t{0} >> (first_bits - 64 * w));
      bits += __builtin_popcountll(figures[l].varying[w] & ~before);
    }
    return bits;
  };
  const size_t at = c.start.level;
  int untaken = 0;
  for (size_t l = at + 1; l < figures.size(); ++l) untaken += varying(l, 0);
  if (at >= figures.size()) return untaken;
  const LevelPlan* p = !c.levels.empty() && c.levels.back().level == at ? &c.levels.back() : nullptr;
  if (p == nullptr) return untaken + varying(at, 0);
  if (p->raw_bits > 0) return untaken + varying(at, static_cast<uint64_t>(p->raw_bits));
  int taken = p->ranks ? p->rank_bits : 0;
  for (uint64_t w = 0; w < p->words; ++w) taken += p->take[w].bits();
  return untaken + std::max(0, varying(at, 0) - taken);
}

namespace {

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

// Text varies in bits a sample may not show: a short word leaves padding
// where letters stood, a capital or a digit turns up among lower case. In
// every byte of a text level that varies in the sample, its seven low bits
// are counted as varying (all eight where the sample varied past ASCII
// anywhere in the level: UTF-8), so that only a byte past ASCII, a byte
// that never varied, or a longer image makes a line miss the plan (and
// widen it). Ten letters then leave a number 26 of the 96 bits, where
// taken as they are (8 bits a byte) they left it 16, and many of a word's
// lines to the refiner.
void seed_text_levels(const std::vector<LineImageSpec>& specs, std::vector<LevelFigures>& figures) {
  constexpr uint64_t kHighBits = 0x8080808080808080ull;
  for (size_t l = 0; l < figures.size(); ++l) {
    if (line_order(specs[l].key) != LineOrder::kText) continue;
    uint64_t high = 0;
    for (const uint64_t word : figures[l].varying) high |= word & kHighBits;
    const uint64_t seed = high != 0 ? 0xFF : 0x7F;
    for (uint64_t& word : figures[l].varying) {
      for (int shift = 0; shift < 64; shift += 8) {
        if (((word >> shift) & 0xFF) != 0) word |= seed << shift;
      }
    }
  }
}

}  // namespace

void settle_figures(const std::vector<LineImageSpec>& specs, const std::vector<uint64_t>& reference,
                    std::vector<LevelFigures>& figures) {
  seed_number_levels(specs, reference, figures);
  seed_text_levels(specs, figures);
  for (size_t l = 0; l < figures.size(); ++l) {
    FewSlots& distinct = figures[l].distinct;
    if (distinct.over()) continue;
    distinct.rank();
    if (ranked_by_collation(specs[l])) distinct.set_ranks(collated_ranks(specs[l], distinct.slots()));
  }
}

// A collated or text level whose keys were mostly distinct in a sample of
// `sampled` lines (whole lines, numbers) has far more than kManySlotsMost
// in the chunk: found in a sample, not by a pass over every line. Fifty
// thousand words, some 36,000 in a sample of 65,536 lines, are ranked.
void drop_many_distinct(const std::vector<LineImageSpec>& specs, uint64_t sampled, std::vector<LevelFigures>& figures) {
  for (size_t l = 0; l < figures.size(); ++l) {
    if (ranks_many(specs[l]) && 4 * figures[l].distinct.size() > 3 * sampled) figures[l].distinct.drop();
  }
}

// Whether a collated or text level that may be ranked showed so many distinct keys in
// a sample of `sampled` lines (an eighth of them or more) that the chunk
// surely holds keys it did not see. Their lines would not fit the plan:
// every line's key would then be added to the figures and every line
// filled again. A sample kWiderSample times as large sees them at a
// fraction of that pass: 50,000 accented words in 60 million lines, some
// 36,000 of them in 65,536 lines, all of them in a million.
bool keys_unseen(const std::vector<LineImageSpec>& specs, uint64_t sampled, const std::vector<LevelFigures>& figures) {
  for (size_t l = 0; l < figures.size(); ++l) {
    if (ranks_many(specs[l]) && !figures[l].distinct.over() && 8 * figures[l].distinct.size() >= sampled) {
      return true;
    }
  }
  return false;
}

}  // namespace gsort
