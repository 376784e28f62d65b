#include "src/cli/gnu_number.h"

#include <cctype>
#include <cstring>

#include "src/keys/line_number.h"

namespace gsort {
namespace {

// The power of 1024 of a unit letter, 0 for none: -h's unit order
// (line_number.h), lower case as upper.
int unit_power(char c) { return unit_order_of(static_cast<uint8_t>(std::toupper(static_cast<unsigned char>(c)))); }

bool is_blank(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }
bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

}  // namespace

GnuNumber read_gnu_number(const std::string& text, const char* units) {
  GnuNumber n;
  size_t at = 0;
  while (at < text.size() && is_blank(text[at])) ++at;
  if (at < text.size() && text[at] == '-') {
    n.status = kNumberInvalid;
    return n;
  }
  if (at < text.size() && text[at] == '+') ++at;
  const size_t digits = at;
  for (; at < text.size() && is_digit(text[at]); ++at) {
    const uint64_t d = static_cast<uint64_t>(text[at] - '0');
    if (n.value > (UINT64_MAX - d) / 10) {
      n.value = UINT64_MAX;
      n.status = kNumberOverflow;
    } else if (n.status == kNumberOk) {
      n.value = n.value * 10 + d;
    }
  }
  if (at == digits) {
    // No digits: a unit letter alone, right at the start, is one of itself.
    if (text.empty() || text[0] == '\0' || std::strchr(units, text[0]) == nullptr) {
      n.status = kNumberInvalid;
      return n;
    }
    at = 0;
    n.value = 1;
  }
  n.end = at;
  if (at == text.size()) return n;
  const int power = std::strchr(units, text[at]) != nullptr ? unit_power(text[at]) : 0;
  if (power == 0) {
    n.status |= kNumberInvalidSuffix;
    return n;
  }
  for (int p = 0; p < power; ++p) {
    if (n.value > UINT64_MAX / 1024) {
      n.value = UINT64_MAX;
      n.status |= kNumberOverflow;
    } else {
      n.value *= 1024;
    }
  }
  n.end = at + 1;
  if (n.end < text.size()) n.status |= kNumberInvalidSuffix;
  return n;
}

std::string gnu_number_error(unsigned status, const std::string& option, const std::string& text) {
  if (status & kNumberInvalid) return "invalid " + option + " argument '" + text + "'";
  if (status & kNumberInvalidSuffix) return "invalid suffix in " + option + " argument '" + text + "'";
  return option + " argument '" + text + "' too large";
}

}  // namespace gsort
