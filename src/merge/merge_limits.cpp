#include "src/merge/merge_limits.h"

#include <dirent.h>
#include <sys/resource.h>

#include <algorithm>

namespace gsort {
namespace {

// Open descriptors of this process (those in /proc/self/fd); 16 if unknown.
size_t open_descriptors() {
  DIR* d = ::opendir("/proc/self/fd");
  if (d == nullptr) return 16;
  size_t n = 0;
  while (dirent* e = ::readdir(d)) {
    if (e->d_name[0] != '.') ++n;
  }
  ::closedir(d);
  return n > 0 ? n - 1 : 0;  // less the one reading the directory
}

}  // namespace

size_t free_descriptors(size_t to_open) {
  struct rlimit limit;
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return size_t{1} << 20;
  const size_t soft = static_cast<size_t>(limit.rlim_cur);
  const size_t used = open_descriptors() + to_open;
  const size_t free = soft > used ? soft - used : 0;
  // Under a tight limit the merges take every descriptor.
  const size_t spare = std::min(kSpareDescriptors, free > kSpareDescriptors ? free - kSpareDescriptors : 0);
  return std::max<size_t>(free - spare, 3);
}

MergeLimits merge_limits(uint64_t memory_fan_in, uint64_t batch_size, bool merging_inputs, size_t descriptors,
                         std::string* explain) {
  MergeLimits limits;
  // A merge of waiting runs needs one more descriptor, for its output. A
  // merge of --merge inputs opens them too, beside the runs that wait.
  const size_t by_files = std::max<size_t>(2, merging_inputs ? descriptors / 2 : descriptors - 1);
  size_t fan_in = std::min<uint64_t>(memory_fan_in, by_files);
  if (batch_size != 0) fan_in = std::min<uint64_t>(fan_in, batch_size);
  limits.fan_in = std::max<size_t>(2, fan_in);
  limits.max_open_runs = merging_inputs ? std::max<size_t>(1, descriptors - std::min(descriptors, limits.fan_in))
                                        : by_files;
  *explain = "merge fan-in " + std::to_string(limits.fan_in) + " (memory allows " + std::to_string(memory_fan_in) +
             ", open files " + std::to_string(by_files) +
             (batch_size != 0 ? ", --batch-size " + std::to_string(batch_size) : std::string()) + "), at most " +
             std::to_string(limits.max_open_runs) + " runs waiting";
  return limits;
}

uint64_t MergeWindows::records_per_source(uint64_t sources) const {
  const uint64_t fit = usable_bytes / (std::max<uint64_t>(sources, 1) * bytes_per_record);
  return std::clamp(fit, least_records, most_records);
}

}  // namespace gsort
