// The public functions of <gsort/gsort.h>: each turns its Options into a
// SortConfig (options_config.h) and runs it as the command line would.
#include <new>
#include <system_error>

#include "gsort/gsort.h"
#include "src/api/options_config.h"
#include "src/api/run_config.h"
#include "src/api/sort_records.h"
#include "src/cli/build_info.h"

namespace gsort {
namespace {

// The library throws only gsort::Error: failures that reach here as
// standard exceptions (memory, threads) are given that type.
template <typename Call>
auto translate_errors(Call call) -> decltype(call()) {
  try {
    return call();
  } catch (const Error&) {
    throw;
  } catch (const std::bad_alloc&) {
    throw Error("out of memory (try a smaller Options::memory_bytes)");
  } catch (const std::exception& e) {
    throw Error(e.what());
  }
}

SortResult result_of(const RunOutcome& o) {
  SortResult r;
  r.input_records = o.report.input_records;
  r.output_records = o.report.output_records;
  r.temp_bytes = o.report.temp_bytes;
  r.backend = o.backend;
  r.seconds = o.seconds;
  return r;
}

// A call's config, run into the output the call names (its -o).
RunOutcome run_call(const SortConfig& config) { return run_config(config, one_process_run(config)); }

std::string descriptor_name(int fd, const char* role) {
  if (fd < 0) throw UsageError(std::string("sort_fd: the ") + role + " descriptor " + std::to_string(fd) + " is not valid");
  return "/dev/fd/" + std::to_string(fd);
}

}  // namespace

std::string version() { return GSORT_VERSION; }

std::string build_info() { return build_info_text(); }

SortResult sort_files(const std::vector<std::string>& inputs, const std::string& output, const Options& options) {
  return translate_errors([&] {
    if (inputs.empty()) throw UsageError("sort_files: no inputs (name \"-\" for standard input)");
    return result_of(run_call(config_from_options(options, Mode::kSort, inputs, output)));
  });
}

SortResult merge_files(const std::vector<std::string>& inputs, const std::string& output, const Options& options) {
  return translate_errors([&] {
    if (inputs.empty()) throw UsageError("merge_files: no inputs (name \"-\" for standard input)");
    return result_of(run_call(config_from_options(options, Mode::kMerge, inputs, output)));
  });
}

SortResult sort_fd(int input_fd, int output_fd, const Options& options) {
  return translate_errors([&] {
    const std::string in = descriptor_name(input_fd, "input"), out = descriptor_name(output_fd, "output");
    return result_of(run_call(config_from_options(options, Mode::kSort, {in}, out)));
  });
}

uint64_t sort_records(void* records, uint64_t count, const Options& options) {
  return translate_errors([&] {
    const SortConfig config = config_from_options(options, Mode::kSort, {"-"}, "-");
    if (config.lines.enabled) throw UsageError("sort_records: give Options::record_size (text lines are sorted in files)");
    if (!config.stats_path.empty() || !config.trace_path.empty()) {
      throw UsageError("sort_records: --stats and --trace are for sorts of files");
    }
    if (count != 0 && records == nullptr) throw UsageError("sort_records: records is null");
    return sort_records_in_place(static_cast<uint8_t*>(records), count, config);
  });
}

CheckReport check_file(const std::string& input, const Options& options) {
  return translate_errors([&] {
    const RunOutcome o = run_call(config_from_options(options, Mode::kCheck, {input}, "-"));
    CheckReport r;
    r.sorted = o.check.sorted;
    r.records = o.check.records;
    r.first_disorder = o.check.sorted ? 0 : o.check.bad_record;
    r.first_disorder_offset = o.check.sorted ? 0 : o.check.bad_offset;
    return r;
  });
}

}  // namespace gsort
