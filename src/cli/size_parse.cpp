#include "src/cli/size_parse.h"

#include <unistd.h>

#include <cctype>

#include "src/cli/gnu_number.h"
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
  GnuNumber n = read_gnu_number(text, "EgGkKmMPQRtTYZ");
  const bool after_digits = n.end > 0 && std::isdigit(static_cast<unsigned char>(text[n.end - 1]));
  if (n.status == kNumberOk && after_digits) {  // a bare number is KiB
    if (n.value > UINT64_MAX / 1024) n.status = kNumberOverflow;
    n.value *= 1024;
  }
  // b (bytes) and % (of memory) right after the digits, and last.
  if (n.status == kNumberInvalidSuffix && after_digits && n.end + 1 == text.size()) {
    if (text[n.end] == 'b') n.status = kNumberOk;
    if (text[n.end] == '%') {
      const uint64_t ram = physical_memory_bytes();
      if (ram == 0) throw UsageError("cannot read this machine's memory size for " + option + " " + text);
      // Over 100% is allowed, as in GNU sort: -S bounds what gsort may use.
      n.status = n.value > UINT64_MAX / (ram / 100 + 1) ? kNumberOverflow : kNumberOk;
      n.value = ram / 100 * n.value;
    }
  }
  if (n.status != kNumberOk) throw UsageError(gnu_number_error(n.status, option, text));
  return n.value;
}

}  // namespace gsort
