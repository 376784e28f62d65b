// Run formation on the device, for an input larger than -S that the GPU
// cannot hold whole: each run is as many records as the device holds
// (SortBackend::resident_capacity), read once through the two pinned
// slots, sorted there and written to the temporary directory as it comes
// back, so that there are few runs and one merge pass where host-sized
// chunks would make many.
#pragma once

#include <vector>

#include "src/merge/pending_source.h"
#include "src/pipeline/form_runs.h"
#include "src/report/sort_report.h"

namespace gsort {

// Least ratio of a device run to the host's chunk for the device to form
// the runs: below it, the host's runs (read, sorted and written at once)
// are as few.
constexpr uint64_t kDeviceRunsMinRatio = 2;

// Forms the runs on the device into `formed`; false, having read nothing,
// where the backend has no device or its runs would not be
// kDeviceRunsMinRatio times the host's chunk (said under -v).
bool form_runs_on_device(const RunFormation& f, std::vector<PendingSource>& formed, SortReport& report);

}  // namespace gsort
