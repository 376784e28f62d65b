#include "src/report/trace_file.h"

#include <cmath>
#include <map>

#include <nlohmann/json.hpp>

namespace gsort {
namespace {

int64_t microseconds(double seconds) { return static_cast<int64_t>(std::llround(seconds * 1e6)); }

}  // namespace

std::string chrome_trace_json(const std::vector<TracedProcess>& processes) {
  using Json = nlohmann::ordered_json;
  Json events = Json::array();
  for (size_t p = 0; p < processes.size(); ++p) {
    const int pid = static_cast<int>(p) + 1;
    std::map<std::string, int> thread_ids;  // track numbers: main is 1, others in the order they first ran
    thread_ids["main"] = 1;
    events.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", pid}, {"args", {{"name", processes[p].name}}}});
    for (const PhaseSpan& span : processes[p].spans) {
      const auto it = thread_ids.emplace(span.thread, static_cast<int>(thread_ids.size()) + 1).first;
      events.push_back({{"name", span.phase},
                        {"cat", "phase"},
                        {"ph", "X"},
                        {"pid", pid},
                        {"tid", it->second},
                        {"ts", microseconds(span.start_s)},
                        {"dur", microseconds(span.end_s - span.start_s)}});
    }
    for (const auto& [name, id] : thread_ids) {
      events.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", pid}, {"tid", id}, {"args", {{"name", name}}}});
    }
  }
  Json trace = {{"traceEvents", events}, {"displayTimeUnit", "ms"}};
  return trace.dump() + "\n";
}

std::string chrome_trace_json(const SortReport& report) {
  return chrome_trace_json({TracedProcess{"gsort", report.timeline_by_start()}});
}

}  // namespace gsort
