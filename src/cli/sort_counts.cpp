#include "src/cli/sort_counts.h"

#include <sys/resource.h>

#include "src/cli/gnu_number.h"
#include "src/core/errors.h"

namespace gsort {
namespace {

// The most --batch-size sort takes: the open-file limit less the standard
// streams, as sort's unsigned int holds it.
unsigned most_batch_size() {
  struct rlimit limit;
  const uint64_t files = ::getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY
                             ? static_cast<uint64_t>(limit.rlim_cur)
                             : UINT64_MAX;
  return static_cast<unsigned>(files - 3);
}

}  // namespace

uint64_t parallel_threads(const std::string& text) {
  const GnuNumber n = read_gnu_number(text, "");
  if (n.status == kNumberOverflow) return UINT64_MAX;
  if (n.status != kNumberOk) throw UsageError(gnu_number_error(n.status, "--parallel", text));
  if (n.value == 0) throw UsageError("number in parallel must be nonzero");
  return n.value;
}

uint64_t merge_batch_size(const std::string& text) {
  const GnuNumber n = read_gnu_number(text, "");
  const unsigned most = most_batch_size();
  // sort's two lines, each its own message ("gsort: " before the first
  // comes with every error).
  if (n.status == kNumberOk && n.value < 2) {
    throw UsageError("invalid --batch-size argument '" + text + "'\ngsort: minimum --batch-size argument is '2'");
  }
  if (n.status == kNumberOverflow || (n.status == kNumberOk && n.value > most)) {
    throw UsageError("--batch-size argument '" + text + "' too large\ngsort: maximum --batch-size argument with " +
                     "current rlimit is " + std::to_string(most));
  }
  if (n.status != kNumberOk) throw UsageError(gnu_number_error(n.status, "--batch-size", text));
  return n.value;
}

}  // namespace gsort
