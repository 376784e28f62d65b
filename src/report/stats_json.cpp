#include "src/report/stats_json.h"

#include <unistd.h>

#include <sys/resource.h>


#include <nlohmann/json.hpp>

#include "io/file/checksum.h"
#include "src/core/address_space.h"

namespace gsort {

// The process's own peak resident set: VmHWM, the high-water mark of its
// memory since exec. getrusage's ru_maxrss also holds the parent's resident
// set at the exec (a child started by vfork or posix_spawn inherits it), so
// a gsort started by a large process would report that process's size.
uint64_t peak_host_bytes() {
  if (const uint64_t hwm = process_status_bytes("VmHWM")) return hwm;
  rusage u{};
  if (::getrusage(RUSAGE_SELF, &u) != 0) return 0;
  return static_cast<uint64_t>(u.ru_maxrss) * 1024;  // Linux reports KiB
}

std::string stats_json(const SortConfig& config, const std::string& output, const SortReport& report,
                       const SortBackend& backend, double total_seconds) {
  return stats_json(config, output, report,
                    BackendSummary{backend.describe(), backend.timings(), backend.peak_device_bytes()}, total_seconds);
}

std::string stats_json(const SortConfig& config, const std::string& output, const SortReport& report,
                       const BackendSummary& backend, double total_seconds) {
  using Json = nlohmann::ordered_json;
  const BackendTimings t = backend.timings;
  Json j;
  j["gsort_version"] = GSORT_VERSION;
  j["mode"] = config.mode == Mode::kMerge ? "merge" : "sort";
  j["backend"] = backend.description;
  j["threads"] = config.threads;
  j["record_size"] = config.record_size;
  j["lines"] = config.lines.enabled;  // records are lines
  j["input"] = {{"files", config.inputs.size()},
                {"records", report.input_records},
                {"bytes", report.input_bytes},
                {"stored_bytes", report.input_stored_bytes}};
  j["output"] = {{"destination", output == "-" ? "standard output" : output},
                 {"records", report.output_records},
                 {"bytes", report.output_bytes},
                 {"stored_bytes", report.output_stored_bytes},
                 {"way", report.output_way},
                 {"compressed", config.compress_output},
                 {"format", config.compress_output ? Json(format_name(config.output_format)) : Json(nullptr)},
                 {"level", config.compress_output ? Json(config.output_level) : Json(nullptr)},
                 // Kept from before gzip, bzip2 and xz: null for them.
                 {"zstd_level", config.compress_output && config.output_format == CompressionFormat::kZstd
                                    ? Json(config.output_level)
                                    : Json(nullptr)}};
  j["in_memory"] = report.in_memory;
  // A spilled sort whose input the GPU held whole (sort_on_device.h), or why
  // not; and the runs that waited there for the merge.
  j["device_resident"] = {{"bytes", report.device_resident_bytes},
                          {"held_runs", report.device_held_runs},
                          {"why_not", report.device_tier_why.empty() ? Json(nullptr) : Json(report.device_tier_why)}};
  j["chunk_records"] = report.chunk_records;
  j["runs"] = report.runs;
  j["merge_passes"] = report.merge_passes;
  j["early_merges"] = report.early_merges;
  const TempChoice& tc = report.temp;
  const auto measured = [](double v) { return v > 0 ? Json(v) : Json(nullptr); };
  j["temp"] = {{"bytes_written", report.temp_bytes},
               {"record_bytes", report.temp_record_bytes},
               {"compressed", tc.compressed},
               {"zstd_level", tc.compressed ? Json(tc.level) : Json(nullptr)},
               {"compress_mode", tc.mode},
               {"compress_reason", tc.decided ? Json(tc.reason) : Json(nullptr)},
               {"sample_ratio", measured(tc.sample_ratio)},
               {"compress_mb_s", measured(tc.compress_bytes_per_s / 1e6)},
               {"device_write_mb_s", measured(tc.device_bytes_per_s / 1e6)},
               {"page_cache_room_bytes", tc.page_cache_room ? Json(tc.page_cache_room) : Json(nullptr)},
               {"expected_bytes", tc.expected_bytes ? Json(tc.expected_bytes) : Json(nullptr)},
               {"streams", tc.streams},
               {"writeback_paced", tc.writeback_paced}};
  j["memory"] = {{"budget_bytes", report.memory_budget ? report.memory_budget : config.memory_bytes},
                 {"requested_bytes", config.memory_bytes},
                 {"peak_host_bytes", peak_host_bytes()},
                 {"peak_anonymous_bytes", report.peak_anonymous_bytes ? Json(report.peak_anonymous_bytes) : Json(nullptr)},
                 {"peak_device_bytes", backend.peak_device_bytes}};
  Json verify = {{"enabled", config.verify}, {"result", config.verify ? (report.verified ? "ok" : "failed") : "off"}};
  if (report.verified) {
    verify["records"] = report.input_records;
    verify["checksum"] = checksum_hex(report.verify_hash_sum);
  }
  j["verify"] = verify;
  Json phases = Json::object();
  for (const auto& [name, seconds] : report.phases) phases[name] = seconds;
  j["phases_s"] = phases;
  Json timeline = Json::array();
  for (const PhaseSpan& span : report.timeline_by_start()) {
    timeline.push_back({{"phase", span.phase}, {"thread", span.thread}, {"start_s", span.start_s}, {"end_s", span.end_s}});
  }
  j["timeline"] = timeline;
  j["backend_s"] = {{"extract", t.extract_s}, {"sort", t.sort_s}, {"merge", t.merge_s},
                    {"copy_in", t.copy_in_s}, {"copy_out", t.copy_out_s}};
  j["backend_chunks"] = t.chunks;
  j["backend_pieces"] = t.pieces;
  j["total_s"] = total_seconds;
  j["throughput_mb_s"] = total_seconds > 0 ? static_cast<double>(report.input_bytes) / 1e6 / total_seconds : 0.0;
  return j.dump() + "\n";
}

std::string stats_for_stderr(const std::string& one_line) {
  if (!::isatty(STDERR_FILENO)) return one_line;
  try {
    return nlohmann::ordered_json::parse(one_line).dump(2) + "\n";
  } catch (const nlohmann::json::exception&) {
    return one_line;
  }
}

std::string check_stats_json(const SortConfig& config, const CheckResult& result, double total_seconds) {
  using Json = nlohmann::ordered_json;
  const uint64_t bytes = result.records * config.record_size;
  Json j;
  j["gsort_version"] = GSORT_VERSION;
  j["mode"] = "check";
  j["record_size"] = config.record_size;
  j["input"] = {{"files", config.inputs.size()}, {"records", result.records}, {"bytes", bytes}};
  j["check"] = {{"sorted", result.sorted},
                {"strict", config.unique},
                {"disorder_at_record", result.sorted ? Json(nullptr) : Json(result.bad_record)}};
  j["memory"] = {{"budget_bytes", config.memory_bytes}, {"peak_host_bytes", peak_host_bytes()}};
  j["total_s"] = total_seconds;
  j["throughput_mb_s"] = total_seconds > 0 ? static_cast<double>(bytes) / 1e6 / total_seconds : 0.0;
  return j.dump() + "\n";
}

}  // namespace gsort
