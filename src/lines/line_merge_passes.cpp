// Merging sorted sources of lines into the destination, in passes when
// they are more than one merge takes.
#include <algorithm>

#include "src/core/stopwatch.h"
#include "src/lines/line_job.h"
#include "src/lines/line_merge.h"

namespace gsort {
namespace {

std::vector<std::unique_ptr<LineSource>> open_all(const std::vector<LineOpener>& group) {
  std::vector<std::unique_ptr<LineSource>> sources;
  for (const LineOpener& open : group) sources.push_back(open());
  return sources;
}

// One pass: each group of fan_in consecutive sources merged into a run.
std::vector<LineOpener> merge_pass(LineJob& job, const std::vector<LineOpener>& sources, std::deque<LineRun>& runs) {
  std::vector<LineOpener> next;
  const uint64_t fan_in = job.plan.fan_in;
  for (size_t first = 0; first < sources.size(); first += fan_in) {
    const size_t last = std::min<size_t>(sources.size(), first + fan_in);
    if (last - first == 1) {
      next.push_back(sources[first]);
      continue;
    }
    const std::vector<LineOpener> group(sources.begin() + first, sources.begin() + last);
    runs.push_back(job.runs().write([&](LineWriter& out) {
      std::vector<std::unique_ptr<LineSource>> open = open_all(group);
      merge_lines(open, job.compare, out, job.pool);
    }));
    LineRun* run = &runs.back();
    next.push_back([&job, run] {
      return std::make_unique<LineSource>(job.runs().open(*run), job.spec.eol, job.plan.source_bytes,
                                          job.plan.max_line);
    });
  }
  return next;
}

}  // namespace

void merge_last_runs(LineJob& job, std::deque<LineRun>& runs) {
  const size_t n = std::min<size_t>(runs.size(), job.plan.fan_in);
  std::deque<LineRun> last;
  for (size_t i = 0; i < n; ++i) {
    last.push_front(std::move(runs.back()));
    runs.pop_back();
  }
  const std::vector<LineOpener> group = openers_of(job, last);
  runs.push_back(job.runs().write([&](LineWriter& out) {
    std::vector<std::unique_ptr<LineSource>> open = open_all(group);
    merge_lines(open, job.compare, out, job.pool);
  }));
  ++job.report.early_merges;
}

std::vector<LineOpener> openers_of(LineJob& job, std::deque<LineRun>& runs) {
  std::vector<LineOpener> openers;
  for (LineRun& run : runs) {
    LineRun* r = &run;
    openers.push_back([&job, r] {
      return std::make_unique<LineSource>(job.runs().open(*r), job.spec.eol, job.plan.source_bytes, job.plan.max_line);
    });
  }
  return openers;
}

void merge_line_sources(LineJob& job, std::vector<LineOpener> sources, std::deque<LineRun>& runs,
                        OutputTarget& output) {
  const Stopwatch t;
  job.meter->phase("merging", 0, &job.written);
  while (sources.size() > job.plan.fan_in) {
    sources = merge_pass(job, sources, runs);
    ++job.report.merge_passes;
  }
  std::vector<std::unique_ptr<LineSource>> open = open_all(sources);
  std::unique_ptr<LineWriter> out = job.destination_writer(output);
  merge_lines(open, job.compare, *out, job.pool);
  out->finish();
  ++job.report.merge_passes;
  job.report.output_records += out->lines_written();
  job.report.output_bytes += out->bytes_written();
  job.report.add_phase("merge", t.seconds());
}

}  // namespace gsort
