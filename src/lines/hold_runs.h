// Where a spilled sort of lines keeps its runs: in the GPU's memory when a
// device can hold the whole input (the runs hold its bytes once), so that
// nothing is written to the temporary directory or its page cache; else in
// the temporary directory. The device starts beside the first chunks; the
// runs spilled before it is ready go to the temporary directory. A
// stream's first chunk sorted in pieces as it arrived is held where it
// lies.
#pragma once

#include <cstdint>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "src/core/device_budget.h"
#include "src/core/host_buffer.h"
#include "src/lines/line_context.h"
#include "src/merge/held_runs.h"
#include "src/report/sort_report.h"

namespace gsort {

// The store the held runs go to, its one owner and only writer.
class HeldLineRuns {
 public:
  // Where a device may hold the runs of a spilled sort of `bytes` of lines
  // (the input is large enough for that to pay), starts making the store
  // in the GPU's memory (out of `budget`, --gpu-memory) beside the first
  // chunks; -v says which, and why (in the report too, where not).
  void start(const LineContext& ctx, uint64_t bytes, std::shared_ptr<DeviceBudget> budget, SortReport& report);
  // Before each run, `runs_before` runs having been spilled: whether it
  // goes to the store, which it fills from the start once that is ready
  // (the runs before it went to the temporary directory).
  bool take(const Log& log, uint64_t runs_before, SortReport& report);
  // The pieces a stream's first chunk was sorted in, where they lie in
  // `sorted` (runs between `bounds`: sort_arriving.h), as the store.
  void hold_sorted_pieces(HostBuffer sorted, const std::vector<uint64_t>& bounds);

  // The store, or null.
  const HeldRuns* store() const { return store_.get(); }
  HeldRuns* store() { return store_.get(); }
  size_t runs() const { return store_ ? store_->runs() : 0; }
  // Whether the device's start is still awaited.
  bool starting() const { return start_.valid(); }

 private:
  // A store, once made; or why there is none.
  struct Start {
    std::unique_ptr<HeldRuns> store;
    std::string why;
  };
  std::unique_ptr<HeldRuns> store_;
  // Declared after the store: a start still going on when the sort ends
  // is waited for before the store goes.
  std::future<Start> start_;
};

}  // namespace gsort
