// Where a spilled sort of lines keeps its runs: in the GPU's memory when a
// device can hold the whole input (the runs hold its bytes once), so that
// nothing is written to the temporary directory or its page cache; else in
// the temporary directory, as before.
#include <string>

#include "src/core/test_hooks.h"
#include "src/lines/job.h"
#if GSORT_HAVE_CUDA
#include "src/lines/merge/device/device_runs.h"
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

}  // namespace

void hold_line_runs(LineJob& job, uint64_t bytes) {
  std::string why = why_not(job, bytes);
  if (why.empty() && test_hooks::hold_line_runs_in_host && test_hooks::hold_line_runs_in_host()) {
    job.held = hold_line_runs_in_host(bytes + job.config.inputs.size());
  }
#if GSORT_HAVE_CUDA
  // The runs hold every line once, with a terminator added to each input's last.
  if (why.empty() && !job.held) {
    job.held = hold_line_runs_on_device(job.config.device, bytes + job.config.inputs.size(), job.config.gpu_memory,
                                        &why);
  }
#else
  if (why.empty() && !job.held) why = "this gsort was built without CUDA";
#endif
  if (job.held) {
    job.log.info("lines: runs held in " + job.held->where() + ", " + std::to_string(job.held->capacity()) +
                 " bytes reserved; none go to the temporary directory");
  } else {
    job.log.info("lines: runs in the temporary directory, not in the GPU's memory (" + why + ")");
  }
}

}  // namespace gsort
