#include "src/cli/obsolete_keys.h"

#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <limits>

#include "src/core/errors.h"

namespace gsort {
namespace {

constexpr uint64_t kSaturated = std::numeric_limits<uint64_t>::max();

// A count at text[at] as sort reads one (leading blanks and a '+'
// allowed, overflow saturating); the position after its digits, or npos
// when there is no count.
size_t read_count(const std::string& text, size_t at, uint64_t* value) {
  while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at]))) ++at;
  if (at < text.size() && text[at] == '+') ++at;
  if (at >= text.size() || !std::isdigit(static_cast<unsigned char>(text[at]))) return std::string::npos;
  uint64_t v = 0;
  for (; at < text.size() && std::isdigit(static_cast<unsigned char>(text[at])); ++at) {
    const uint64_t d = static_cast<uint64_t>(text[at] - '0');
    v = v > (kSaturated - d) / 10 ? kSaturated : v * 10 + d;
  }
  *value = v;
  return at;
}

// The count at text[at], or UsageError in sort's words.
size_t need_count(const std::string& text, size_t at, uint64_t* value, const char* what) {
  const size_t end = read_count(text, at, value);
  if (end == std::string::npos) {
    throw UsageError(std::string(what) + ": invalid count at start of '" + text.substr(at) + "'");
  }
  return end;
}

bool is_ordering_letters(const std::string& s) { return s.find_first_not_of("bdfghiMnRrV") == std::string::npos; }

std::string plus_one(uint64_t n) { return std::to_string(n == kSaturated ? n : n + 1); }

}  // namespace

bool obsolete_keys_by_default() {
  long version = 200809;  // sort's own POSIX version where the environment names none
  if (const char* v = std::getenv("_POSIX2_VERSION"); v && *v) {
    char* end = nullptr;
    const long given = std::strtol(v, &end, 10);
    if (*end == '\0') version = given;
  }
  return !(200112 <= version && version < 200809);
}

bool looks_like_minus_pos(const std::string& word) {
  return word.size() > 1 && word[0] == '-' && std::isdigit(static_cast<unsigned char>(word[1]));
}

std::optional<ObsoleteKey> parse_obsolete_key(const std::string& plus, const std::string* next) {
  uint64_t field = 0, chars = 0;
  size_t at = read_count(plus, 1, &field);
  if (at != std::string::npos && at < plus.size() && plus[at] == '.') at = read_count(plus, at + 1, &chars);
  if (at == std::string::npos || !is_ordering_letters(plus.substr(at))) return std::nullopt;
  ObsoleteKey key;
  key.spec = plus_one(field) + (chars ? "." + plus_one(chars) : "") + plus.substr(at);
  key.warning = "obsolescent key '+" + std::to_string(field);
  std::string instead = "-k " + plus_one(field);
  if (next && looks_like_minus_pos(*next)) {
    const std::string& minus = *next;
    uint64_t end_field = 0, end_chars = 0;
    at = need_count(minus, 1, &end_field, "invalid number after '-'");
    if (at < minus.size() && minus[at] == '.') at = need_count(minus, at + 1, &end_chars, "invalid number after '.'");
    if (!is_ordering_letters(minus.substr(at))) {
      throw UsageError("stray character in field spec: invalid field specification '" + minus + "'");
    }
    // -B is the end of field B-1 (counting from 0); -B.y with y > 0 is y
    // characters into field B; -0 is sort's end of field 0.
    if (end_chars == 0 && end_field > 0) --end_field;
    key.spec += "," + plus_one(end_field) + (end_chars ? "." + std::to_string(end_chars) : "") + minus.substr(at);
    key.warning += " -" + plus_one(end_field);
    instead += "," + plus_one(end_field);
    key.took_minus = true;
  }
  key.warning += "' used; consider '" + instead + "' instead";
  return key;
}

}  // namespace gsort
