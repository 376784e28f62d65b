// What TieRefiner (tie_refine.h) reads of its members' keys where the
// cache places them: the longest image, the bytes all members share, whether
// their keys are one, where each key lies, and a round's heads.
#include <algorithm>
#include <cstring>

#include "src/algo/common_prefix.h"
#include "src/chunk_sort/lines/tie_refine.h"
#include "src/keys/line_fields.h"

namespace gsort {

uint64_t TieRefiner::placed_longest(const KeyEntry* e, uint64_t n, uint32_t level) const {
  uint64_t longest = 0;
  for (uint64_t i = 0; i < n; ++i) {
    const LineCache c = entry(level, e[i].index);
    longest = std::max<uint64_t>(longest, c.key_length == kUnplaced ? ~uint64_t{0} : c.image_length);
  }
  return longest;
}

void TieRefiner::skip_equal_words(const KeyEntry* e, TieSegment& s) const {
  if (s.depth == 0 || image_words_costly(images_[s.level].key)) return;
  const uint64_t from = 8 * s.depth;
  const LineCache first = entry(s.level, e[s.begin].index);
  if (first.key_length == kUnplaced || first.key_length <= from) return;
  const uint64_t first_rest = first.key_length - from;
  const uint8_t* bytes = lines_.text + first.key_at + from;
  // Bytes every member has as the first has them, in a window that grows
  // with the depth reached: a long run of equal bytes takes a few steps.
  uint64_t same = std::min<uint64_t>(first_rest, 8 * std::max(kSkipWords, s.depth));
  bool ends_together = true;
  for (uint64_t i = s.begin + 1; i < s.begin + s.size; ++i) {
    const LineCache c = entry(s.level, e[i].index);
    if (c.key_length == kUnplaced || c.key_length <= from) return;
    const uint64_t rest = c.key_length - from;
    ends_together &= rest == first_rest;
    same = common_prefix(bytes, lines_.text + c.key_at + from, std::min(same, rest));
    if (same < 8) return;
  }
  // All equal to their common end: its last word too (padded alike).
  s.depth += ends_together && same == first_rest ? (same + 7) / 8 : same / 8;
}

bool TieRefiner::heads_known_equal(const KeyEntry* e, const TieSegment& s) const {
  // (A level whose key is the line itself and never placed says its
  // line's length, not its head's.)
  if (s.depth == 0 || needs_no_place(s.level)) return false;
  for (uint64_t i = 0; i < s.size; ++i) {
    const LineCache& c = cache_[e[i].index];
    if (c.image_length == kUnplaced || c.image_length > 8 * s.depth) return false;
  }
  return true;
}

bool TieRefiner::keys_alike(const KeyEntry* e, uint64_t n) const {
  const LineCache& first = cache_[e[0].index];
  if (first.key_length == kUnplaced) return false;
  for (uint64_t i = 1; i < n; ++i) {
    const LineCache& c = cache_[e[i].index];
    if (c.key_length != first.key_length ||
        std::memcmp(lines_.text + c.key_at, lines_.text + first.key_at, first.key_length) != 0) {
      return false;
    }
  }
  return true;
}

void TieRefiner::member_keys(const KeyEntry* e, uint64_t n, uint32_t level, std::vector<KeyBytes>& keys) const {
  keys.resize(n);
  const LineImageSpec& image = images_[level];
  for (uint64_t i = 0; i < n; ++i) {
    const uint32_t line = e[i].index;
    const LineCache c = entry(level, line);
    if (c.key_length != kUnplaced) {
      keys[i] = KeyBytes{lines_.text + c.key_at, c.key_length};
    } else {
      uint64_t begin = 0, end = 0;
      line_key_extent(lines_.line(line), lines_.length(line), image.key, image.separator, &begin, &end);
      keys[i] = KeyBytes{lines_.line(line) + begin, end - begin};
    }
  }
}

void TieRefiner::read_heads(const std::vector<TieSegment>& segments, const std::vector<uint32_t>& member_lines,
                            std::vector<uint64_t>& words) const {
  // As load_round reads words: a member's cache entry and then its key's
  // bytes on their way in for members ahead (tied lines lie anywhere in
  // the chunk; a segment is mostly 2 or 3).
  constexpr size_t kFar = 16, kNear = 8;
  const size_t total = member_lines.size();
  words.resize(kHeadWords * total);
  size_t k = 0;
  for (const TieSegment& s : segments) {
    const LineImageSpec& image = images_[s.level];
    for (uint64_t i = 0; i < s.size; ++i, ++k) {
      if (k + kFar < total) __builtin_prefetch(&cache_[member_lines[k + kFar]]);
      if (k + kNear < total) {
        const LineCache& ahead = cache_[member_lines[k + kNear]];
        if (ahead.key_length != kUnplaced) __builtin_prefetch(lines_.text + ahead.key_at);
      }
      const uint32_t line = member_lines[k];
      const LineCache& c = cache_[line];
      const LineImageView v = c.key_length != kUnplaced ? view_line_key(image, lines_.text + c.key_at, c.key_length)
                                                        : view_line_image(image, lines_.line(line), lines_.length(line));
      for (uint64_t w = 0; w < kHeadWords; ++w) words[kHeadWords * k + w] = line_image_word(image, v, w);
    }
  }
}

}  // namespace gsort
