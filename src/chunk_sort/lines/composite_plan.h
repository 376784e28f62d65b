// The plan of a line chunk's composite image (composite_pass.h): what each
// key level's slots show over a sample of lines (LevelFigures), and from
// those how the 96 bits take the levels in, one after another (LevelPlan,
// Composite): a few distinct images ranked, a number's varying bits, text
// as it is or squeezed to its varying bits. composite_pass.cpp fills every
// line's image by the plan.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "src/algo/bit_squeeze.h"
#include "src/chunk_sort/lines/collated_ranks.h"
#include "src/chunk_sort/lines/composite_pass.h"
#include "src/chunk_sort/lines/few_slots.h"
#include "src/keys/line_spec.h"

namespace gsort {

constexpr int kCompositeBits = 96;

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

// Levels the composite can take in: those with images of bytes (the 'R'
// digest and the 'V' head leave ties to the comparison), and collated
// text by the ranks of its few distinct keys (collated_ranks.h; its head
// is not taken in).
inline bool composable(const LineImageSpec& level) {
  const LineOrder order = line_order(level.key);
  return order != LineOrder::kRandom && (ranked_by_collation(level) || !image_leaves_ties_to_comparison(level.key));
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

// Whether a level's figures count up to kManySlotsMost distinct keys, not
// kFewSlotsMost: a collated level (its ranks are its only exact image) and
// a text level (fifty thousand words ranked in 16 bits leave a number
// after them the bits their bytes would take).
inline bool ranks_many(const LineImageSpec& level) {
  return ranked_by_collation(level) || line_order(level.key) == LineOrder::kText;
}

// Figures with nothing added yet for levels [0, levels) of `specs` (a
// level that ranks_many holds more distinct keys than others).
std::vector<LevelFigures> empty_figures(const std::vector<LineImageSpec>& specs, size_t levels);

// The plan of the levels of `figures` in turn; with squeeze_text, a text
// level whose varying bits are fewer than its bytes' is squeezed to them;
// with rank_many, a text level of more than kFewSlotsMost distinct keys
// (and no more than kManySlotsMost) is ranked, not taken as text.
Composite compose(const std::vector<LineImageSpec>& specs, const std::vector<LevelFigures>& figures,
                  bool squeeze_text, bool rank_many = false);

// Varying bits of a level's slot that a plan leaves to the refiner: at
// the level its ties start from, those it did not take, and every bit of
// the levels after it. 0 where the plan settles every line.
int untaken_bits(const Composite& c, const std::vector<LevelFigures>& figures);

// The sample's figures made ready to plan from: the bits a sample often
// misses counted as varying (a number's class and digit count, with
// `reference`: line 0's slot words, level by level; the low bits of every
// byte of text that varies), and each level's few distinct slots ranked.
void settle_figures(const std::vector<LineImageSpec>& specs, const std::vector<uint64_t>& reference,
                    std::vector<LevelFigures>& figures);

// A collated or text level that may be ranked, seen in a sample of
// `sampled` lines: drop_many_distinct stops counting the keys of one whose
// keys were mostly distinct (far more than kManySlotsMost in the chunk);
// keys_unseen says whether one showed so many (an eighth of the lines or
// more) that the chunk surely holds keys the sample did not see.
void drop_many_distinct(const std::vector<LineImageSpec>& specs, uint64_t sampled, std::vector<LevelFigures>& figures);
bool keys_unseen(const std::vector<LineImageSpec>& specs, uint64_t sampled, const std::vector<LevelFigures>& figures);

}  // namespace gsort
