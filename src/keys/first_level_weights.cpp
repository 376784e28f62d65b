#include "src/keys/first_level_weights.h"

#include <langinfo.h>

#include <cstring>
#include <string>

namespace gsort {
namespace {

// The first level of strxfrm's image of s, into image.
void first_level(locale_t l, const std::string& s, std::string& image) {
  image.clear();
  append_strxfrm(l, s.c_str(), image);
  keep_first_level(image);
}

std::string utf8_of(uint32_t c) {
  std::string s;
  if (c < 0x80) {
    s += static_cast<char>(c);
  } else if (c < 0x800) {
    s += static_cast<char>(0xC0 | (c >> 6));
    s += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    s += static_cast<char>(0xE0 | (c >> 12));
    s += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    s += static_cast<char>(0x80 | (c & 0x3F));
  }
  return s;
}

}  // namespace

void append_strxfrm(locale_t l, const char* s, std::string& out) {
  const size_t at = out.size();
  size_t room = 3 * std::strlen(s) + 16;
  for (;;) {
    out.resize(at + room);
    const size_t need = strxfrm_l(&out[at], s, room, l);
    if (need < room) {
      out.resize(at + need);
      return;
    }
    room = need + 1;
  }
}

void keep_first_level(std::string& image) {
  const size_t end = image.find('\x01');
  if (end != std::string::npos) image.resize(end);
}

std::unique_ptr<FirstLevelWeights> FirstLevelWeights::build(locale_t collate, const char* name) {
  locale_t ctype = newlocale(LC_CTYPE_MASK, name, static_cast<locale_t>(0));
  if (ctype == static_cast<locale_t>(0)) return nullptr;
  const std::string codeset = nl_langinfo_l(CODESET, ctype);
  const bool utf8 = codeset == "UTF-8";
  const locale_t previous = uselocale(ctype);
  const bool single_bytes = MB_CUR_MAX == 1;  // (this thread's locale's, for the moment)
  uselocale(previous);
  freelocale(ctype);
  if (!utf8 && !single_bytes) return nullptr;  // EUC-JP, GB18030 and the like: strxfrm alone
  auto table = std::unique_ptr<FirstLevelWeights>(new FirstLevelWeights);
  table->utf8_ = utf8;
  // The characters checked: every byte but NUL in a single-byte locale;
  // else ASCII, Latin-1 and Latin Extended-A. (Greek, Cyrillic, general
  // punctuation and currency signs too made five times the pairs to check,
  // 100 ms and more, which a sort of 20 MB felt.)
  const uint32_t last = utf8 ? 0x17F : 0xFF;
  const auto checked = [utf8](uint32_t c) {
    if (!utf8) return true;
    return (c < 0x80) || (c >= 0xA0 && c <= 0x17F);
  };
  table->by_character_.assign(last + 1, CharacterWeights{});
  std::vector<uint32_t> held;
  std::vector<std::string> text(last + 1), weights(last + 1);
  for (uint32_t c = 1; c <= last; ++c) {
    if (!checked(c)) continue;  // (C1 controls among them: left to strxfrm)
    text[c] = utf8 ? utf8_of(c) : std::string(1, static_cast<char>(c));
    first_level(collate, text[c], weights[c]);
    if (weights[c].size() <= static_cast<size_t>(CharacterWeights::kMostBytes)) held.push_back(c);
  }
  // A character whose weights change beside another (a contraction, a
  // context) is left out, and so is the other.
  std::vector<bool> out(last + 1, false);
  std::string pair;
  for (const uint32_t a : held) {
    for (const uint32_t b : held) {
      first_level(collate, text[a] + text[b], pair);
      if (pair.size() != weights[a].size() + weights[b].size() || pair.compare(0, weights[a].size(), weights[a]) != 0 ||
          pair.compare(weights[a].size(), std::string::npos, weights[b]) != 0) {
        out[a] = out[b] = true;
      }
    }
  }
  for (const uint32_t c : held) {
    if (out[c]) continue;
    CharacterWeights& w = table->by_character_[c];
    w.length = static_cast<uint8_t>(weights[c].size());
    std::memcpy(w.bytes, weights[c].data(), weights[c].size());
  }
  for (uint32_t b = 0; b < 128; ++b) table->ascii_[b] = table->by_character_[b];
  table->ascii_[0].length = CharacterWeights::kSegmentEnd;
  auto fast = std::make_unique<AsciiHeads>(table->ascii_);
  if (fast->usable()) table->fast_ = std::move(fast);
  return table;
}

bool FirstLevelWeights::head(const uint8_t* text, uint64_t len, uint8_t* out, uint64_t cap, uint64_t* written) const {
  if (fast_ && fast_->head(text, len, out, cap, written)) return true;
  return table_head(view(), text, len, out, cap, written);
}

HeadTable FirstLevelWeights::view() const {
  return HeadTable{ascii_, by_character_.data(), by_character_.size(), utf8_};
}

uint64_t FirstLevelWeights::held() const {
  uint64_t n = 0;
  for (const CharacterWeights& w : by_character_) n += w.length != CharacterWeights::kNotHeld;
  return n;
}

bool FirstLevelWeights::keeps_heads_under(const uint8_t map[256]) const {
  const auto held = [this](uint32_t c) {
    return (!utf8_ || c < 0x80) && c < by_character_.size() && by_character_[c].length != CharacterWeights::kNotHeld;
  };
  for (uint32_t b = 0; b < 256; ++b) {
    const uint32_t to = map[b];
    if (to == b) continue;
    if (!held(b) || !held(to)) return false;
    const CharacterWeights &x = by_character_[b], &y = by_character_[to];
    if (x.length != y.length || std::memcmp(x.bytes, y.bytes, x.length) != 0) return false;
  }
  return true;
}

}  // namespace gsort
