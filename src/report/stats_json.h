// --stats: what one sort or merge did, as one JSON object (sizes, runs,
// passes, phase times, throughput, backend, peak memory, compression and
// --verify), built with nlohmann::json.
#pragma once

#include <string>

#include "src/chunk_sort/sort_backend.h"
#include "src/config/sort_config.h"
#include "src/report/sort_report.h"
#include "src/verify/sorted_check.h"

namespace gsort {

// What --stats says of the backend (or, for lines, of the sorter).
struct BackendSummary {
  std::string description;
  BackendTimings timings;
  uint64_t peak_device_bytes = 0;
};

// The JSON text (one line, ending in a newline). output: the file written
// (RunOptions::output). total_seconds: the wall time of the whole run.
std::string stats_json(const SortConfig& config, const std::string& output, const SortReport& report,
                       const SortBackend& backend, double total_seconds);
std::string stats_json(const SortConfig& config, const std::string& output, const SortReport& report,
                       const BackendSummary& backend, double total_seconds);

// The same for -c / -C: what was checked and what was found.
std::string check_stats_json(const SortConfig& config, const CheckResult& result, double total_seconds);

// --stats -: the one-line JSON as a person reads it on a terminal (indented
// by two), where standard error is one; as it is otherwise.
std::string stats_for_stderr(const std::string& one_line);

// The process's peak resident memory in bytes (getrusage ru_maxrss).
uint64_t peak_host_bytes();

}  // namespace gsort
