#include "src/lines/hold_runs.h"

#include <chrono>
#include <utility>

#include "src/core/test_hooks.h"
#if GSORT_HAVE_CUDA
#include "src/merge/device/held_runs_on_device.h"
#endif

namespace gsort {
namespace {

// Inputs below this are left to the temporary directory: a device's
// start (0.3 to 1.2 s on the H100 host) costs more than their runs' writes.
constexpr uint64_t kLeastHeldBytes = uint64_t{1} << 30;

std::string why_not(const SortConfig& config, uint64_t bytes) {
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

void HeldLineRuns::start(const LineContext& ctx, uint64_t bytes, std::shared_ptr<DeviceBudget> budget,
                         SortReport& report) {
  const std::string why = why_not(ctx.config, bytes);
  if (!why.empty()) {
    report.device_tier_why = why;
    ctx.log.info("lines: runs in the temporary directory, not in the GPU's memory (" + why + ")");
    return;
  }
  // The runs hold every line once, with a terminator added to each input's last.
  const uint64_t store = bytes + ctx.config.inputs.size();
  if (test_hooks::hold_runs_in_host && test_hooks::hold_runs_in_host()) {
    start_ = std::async(std::launch::deferred, [store] { return Start{hold_runs_in_host(store), ""}; });
    return;
  }
#if GSORT_HAVE_CUDA
  const int device = ctx.config.device;
  start_ = std::async(std::launch::async, [device, store, budget = std::move(budget)] {
    Start start;
    start.store = hold_runs_on_device(device, store, budget, &start.why);
    return start;
  });
  ctx.log.info("lines: the GPU's memory may hold the runs; the device starts beside the first chunks");
#else
  (void)budget;
  ctx.log.info("lines: runs in the temporary directory, not in the GPU's memory (this gsort was built without CUDA)");
#endif
}

bool HeldLineRuns::take(const Log& log, uint64_t runs_before, SortReport& report) {
  if (store_) return true;
  if (!start_.valid() || runs_before < first_held_run()) return false;
  // A deferred start (a test's host store) reports its status as deferred: it is ready to run here.
  if (wait_for_the_start()) start_.wait();
  if (start_.wait_for(std::chrono::seconds(0)) == std::future_status::timeout) return false;
  Start start = start_.get();
  if (!start.store) {
    report.device_tier_why = start.why;
    log.info("lines: runs in the temporary directory, not in the GPU's memory (" + start.why + ")");
    return false;
  }
  store_ = std::move(start.store);
  log.info("lines: runs held in " + store_->where() + ", " + std::to_string(store_->capacity()) +
           " bytes reserved, from run " + std::to_string(runs_before + 1) +
           " on (those before it in the temporary directory)");
  return true;
}

void HeldLineRuns::hold_sorted_pieces(HostBuffer sorted, const std::vector<uint64_t>& bounds) {
  store_ = hold_runs_in_place(std::move(sorted), bounds);
}

}  // namespace gsort
