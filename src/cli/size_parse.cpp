#include "src/cli/size_parse.h"

#include <unistd.h>

#include <cctype>
#include <utility>

#include "src/cli/memory_limit.h"
#include "src/core/errors.h"

namespace gsort {

uint64_t physical_memory_bytes() {
  if (const uint64_t limit = cgroup_memory_limit()) return limit;
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page_size = ::sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return 0;
  return static_cast<uint64_t>(pages) * static_cast<uint64_t>(page_size);
}

uint64_t parse_size(const std::string& text, const std::string& option) {
  const auto bad = [&] {
    return UsageError("invalid size '" + text + "' for " + option +
                      " (expected a number with an optional suffix b, K, M, G, T, P, E or %)");
  };
  const auto bad_suffix = [&] {
    return UsageError("invalid suffix in " + option + " argument '" + text +
                      "' (expected b, K, M, G, T, P, E or %)");
  };
  const auto too_large = [&] { return UsageError("size '" + text + "' for " + option + " is too large"); };
  size_t i = 0;
  uint64_t value = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
    const uint64_t digit = static_cast<uint64_t>(text[i] - '0');
    if (value > (UINT64_MAX - digit) / 10) throw too_large();
    value = value * 10 + digit;
    ++i;
  }
  if (i == 0) throw bad();
  const std::string suffix = text.substr(i);
  if (suffix == "%") {
    // Over 100% is allowed, as in GNU sort: -S bounds what gsort may use.
    if (value == 0) throw bad();
    const uint64_t ram = physical_memory_bytes();
    if (ram == 0) throw UsageError("cannot read this machine's memory size for " + option + " " + text);
    if (value > UINT64_MAX / (ram / 100 + 1)) throw too_large();
    return ram / 100 * value;
  }
  // GNU sort's suffixes, powers of 1024; Z and Y only to say that they are
  // too large (as GNU sort does; R and Q, which it does not know, are
  // invalid). Lower case k, m, g, t as GNU sort; b and B bytes.
  static const std::pair<const char*, int> kShifts[] = {
      {"", 10},  {"K", 10}, {"k", 10}, {"b", 0},  {"B", 0},  {"M", 20}, {"m", 20}, {"G", 30},
      {"g", 30}, {"T", 40}, {"t", 40}, {"P", 50}, {"E", 60}, {"Z", 70}, {"Y", 80}};
  for (const auto& [name, shift] : kShifts) {
    if (suffix != name) continue;
    if (value == 0) return 0;
    if (shift >= 64 || value > (UINT64_MAX >> shift)) throw too_large();
    return value << shift;
  }
  throw bad_suffix();
}

}  // namespace gsort
