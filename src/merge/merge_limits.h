// How wide a merge may be, how many spilled runs may wait at once, and how
// many records each source of a merge holds in memory.
// Every run waiting to be merged holds an open descriptor (its file has no
// name, see io/temp/temp_dir.h), and every source of a merge is open while it
// runs, so both are bounded by the open-file limit (RLIMIT_NOFILE) less
// what is already open and a margin; the fan-in also by memory (the plan's
// fan-in) and by --batch-size. Past these, runs are merged early and in
// passes, as GNU sort's --batch-size does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace gsort {

// How many sources one merge takes, and how many spilled runs may exist
// (each holds a descriptor) before they are merged early.
struct MergeLimits {
  size_t fan_in = 2;
  size_t max_open_runs = 2;
};

// Descriptors kept free for whatever else gsort may open meanwhile (--stats,
// a GPU's device files), where the limit leaves room for them: up to this
// many of those past the first kSpareDescriptors.
constexpr size_t kSpareDescriptors = 16;

// Descriptors the merges may hold: the soft RLIMIT_NOFILE less those open
// now, less `to_open` that gsort opens later besides the merges' sources
// and runs (by default the temporary directory's lock), less the spare (at
// least 3).
size_t free_descriptors(size_t to_open = 1);

// memory_fan_in: the plan's. batch_size: --batch-size (the most sources
// merged at once; it can only lower the fan-in), 0 when not given.
// merging_inputs: --merge, whose inputs are opened only when merged, so a
// merge of inputs needs descriptors beside those of the waiting runs: a
// merge of fan_in inputs into a run, beside max_open_runs - 1 waiting,
// holds fan_in + max_open_runs descriptors, at most `descriptors`; at
// three, runs are merged in a chain, each with one more input.
// `explain` receives the -v line.
MergeLimits merge_limits(uint64_t memory_fan_in, uint64_t batch_size, bool merging_inputs, size_t descriptors,
                         std::string* explain);

// Records each of a merge's sources holds: what the budget gives the
// merge's windows (src/pipeline/memory_plan.h), between the least and the
// most. Larger windows mean fewer, larger merge batches.
struct MergeWindows {
  uint64_t usable_bytes = 0;      // the budget less the output's buffers
  uint64_t bytes_per_record = 1;  // a window's record, with its share of the batch buffers, the order and the backend's space
  uint64_t least_records = 1;
  uint64_t most_records = 1;
  uint64_t records_per_source(uint64_t sources) const;
};

}  // namespace gsort
