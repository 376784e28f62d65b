#include "src/cli/size_parse.h"

#include <unistd.h>

#include <cctype>

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
                      " (expected a number with an optional suffix b, K, M, G, T or %)");
  };
  size_t i = 0;
  uint64_t value = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
    const uint64_t digit = static_cast<uint64_t>(text[i] - '0');
    if (value > (UINT64_MAX - digit) / 10) throw bad();
    value = value * 10 + digit;
    ++i;
  }
  if (i == 0) throw bad();
  const std::string suffix = text.substr(i);
  if (suffix == "%") {
    if (value == 0 || value > 100) throw bad();
    const uint64_t ram = physical_memory_bytes();
    if (ram == 0) throw UsageError("cannot read this machine's memory size for " + option + " " + text);
    return ram / 100 * value;
  }
  int shift;
  if (suffix.empty() || suffix == "K" || suffix == "k") {
    shift = 10;
  } else if (suffix == "b" || suffix == "B") {
    shift = 0;
  } else if (suffix == "M" || suffix == "m") {
    shift = 20;
  } else if (suffix == "G" || suffix == "g") {
    shift = 30;
  } else if (suffix == "T" || suffix == "t") {
    shift = 40;
  } else {
    throw bad();
  }
  if (shift > 0 && value > (UINT64_MAX >> shift)) throw bad();
  return value << shift;
}

}  // namespace gsort
