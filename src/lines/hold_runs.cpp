// Where a spilled sort of lines keeps its runs: in the GPU's memory when a
// device can hold the whole input (the runs hold its bytes once), so that
// nothing is written to the temporary directory or its page cache; else in
// the temporary directory, as before. The device starts beside the first
// chunks; the runs spilled before it is ready go to the temporary directory.
#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include "src/core/test_hooks.h"
#include "src/lines/job.h"
#if GSORT_HAVE_CUDA
#include "src/merge/device/held_runs_on_device.h"
#endif

namespace gsort {
namespace {

// Inputs below this are left to the temporary directory: a device's
// start (0.3 to 1.2 s on the H100 host) costs more than their runs' writes.
constexpr uint64_t kLeastHeldBytes = uint64_t{1} << 30;

std::string why_not(const LineJob& job, uint64_t bytes) {
  const SortConfig& config = job.config;
  if (config.backend == BackendChoice::kCpu) return "--backend cpu";
  if (bytes == 0) return "the input's size is not known before it is read";
  uint64_t least = kLeastHeldBytes;
  if (test_hooks::hold_line_runs_from && test_hooks::hold_line_runs_from() != UINT64_MAX) {
    least = test_hooks::hold_line_runs_from();
  }
  if (bytes < least) return "the input is smaller than " + std::to_string(least) + " bytes";
  if (!config.compress_program.empty()) return "--compress-program";
  return "";
}

// A test's: the runs before this one go to the temporary directory.
uint64_t first_held_run() { return test_hooks::hold_line_runs_after ? test_hooks::hold_line_runs_after() : 0; }

// A test that makes small inputs take the held runs wants them held: its
// spills wait for the device's start.
bool wait_for_the_start() {
  return test_hooks::hold_line_runs_from && test_hooks::hold_line_runs_from() != UINT64_MAX;
}

}  // namespace

void hold_line_runs(LineJob& job, uint64_t bytes) {
  const std::string why = why_not(job, bytes);
  if (!why.empty()) {
    job.report.device_tier_why = why;
    job.log.info("lines: runs in the temporary directory, not in the GPU's memory (" + why + ")");
    return;
  }
  // The runs hold every line once, with a terminator added to each input's last.
  const uint64_t store = bytes + job.config.inputs.size();
  if (test_hooks::hold_runs_in_host && test_hooks::hold_runs_in_host()) {
    job.held_start = std::async(std::launch::deferred, [store] { return HeldRunsStart{hold_runs_in_host(store), ""}; });
    return;
  }
#if GSORT_HAVE_CUDA
  const int device = job.config.device;
  job.held_start = std::async(std::launch::async, [device, store, budget = job.device_budget] {
    HeldRunsStart start;
    start.store = hold_runs_on_device(device, store, budget, &start.why);
    return start;
  });
  job.log.info("lines: the GPU's memory may hold the runs; the device starts beside the first chunks");
#else
  job.log.info("lines: runs in the temporary directory, not in the GPU's memory (this gsort was built without CUDA)");
#endif
}

bool take_held_runs(LineJob& job) {
  if (job.held) return true;
  if (!job.held_start.valid() || job.report.runs < first_held_run()) return false;
  // A deferred start (a test's host store) reports its status as deferred: it is ready to run here.
  if (wait_for_the_start()) job.held_start.wait();
  const std::future_status status = job.held_start.wait_for(std::chrono::seconds(0));
  if (status == std::future_status::timeout) return false;
  HeldRunsStart start = job.held_start.get();
  if (!start.store) {
    job.report.device_tier_why = start.why;
    job.log.info("lines: runs in the temporary directory, not in the GPU's memory (" + start.why + ")");
    return false;
  }
  job.held = std::move(start.store);
  job.log.info("lines: runs held in " + job.held->where() + ", " + std::to_string(job.held->capacity()) +
               " bytes reserved, from run " + std::to_string(job.report.runs + 1) +
               " on (those before it in the temporary directory)");
  return true;
}

void hold_sorted_pieces(LineJob& job, HostBuffer sorted, const std::vector<uint64_t>& bounds) {
  job.held = hold_runs_in_place(std::move(sorted), bounds);
}

}  // namespace gsort
