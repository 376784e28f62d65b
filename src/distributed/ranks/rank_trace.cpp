#include "src/distributed/ranks/rank_trace.h"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

namespace gsort {
namespace {

using Json = nlohmann::ordered_json;

int64_t microseconds(double seconds) { return static_cast<int64_t>(std::llround(seconds * 1e6)); }

Json span(const std::string& name, int pid, int tid, double start_s, double seconds) {
  return {{"name", name}, {"cat", "phase"},         {"ph", "X"}, {"pid", pid}, {"tid", tid},
          {"ts", microseconds(start_s)}, {"dur", microseconds(seconds)}};
}

Json name_of(const char* what, int pid, int tid, const std::string& name) {
  Json e = {{"name", what}, {"ph", "M"}, {"pid", pid}};
  if (tid > 0) e["tid"] = tid;
  e["args"] = {{"name", name}};
  return e;
}

}  // namespace

std::string ranks_trace_json(const std::vector<RankStats>& all) {
  Json events = Json::array();
  for (size_t r = 0; r < all.size(); ++r) {
    const RankStats& s = all[r];
    const int pid = static_cast<int>(r) + 1;
    events.push_back(name_of("process_name", pid, 0, "rank " + std::to_string(r)));
    events.push_back(name_of("thread_name", pid, 1, "steps"));
    const double steps = s.splitters_s + s.exchange_s + s.sort_s + s.write_s;
    double at = 0;
    const auto step = [&](const std::string& name, double seconds) {
      if (seconds > 0) events.push_back(span(name, pid, 1, at, seconds));
      at += seconds;
    };
    step("prepare", std::max(0.0, s.total_s - steps));
    step("splitters", s.splitters_s);
    const double exchange_at = at;
    step("exchange", s.exchange_s);
    if (s.read_s > 0) events.push_back(span("read and partition", pid, 1, exchange_at, std::min(s.read_s, s.exchange_s)));
    if (s.exchange_wait_s > 0) {
      const double wait = std::min(s.exchange_wait_s, s.exchange_s);
      events.push_back(span("in the collectives", pid, 1, exchange_at + s.exchange_s - wait, wait));
    }
    step("local sort", s.sort_s);
    step("write", s.write_s);
  }
  const Json trace = {{"traceEvents", events}, {"displayTimeUnit", "ms"}};
  return trace.dump() + "\n";
}

}  // namespace gsort
