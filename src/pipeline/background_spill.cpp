#include "src/pipeline/background_spill.h"

#include <algorithm>

namespace gsort {

void BackgroundSpill::start(const uint8_t* records, const uint32_t* order, uint64_t count) {
  run_ = PendingSource();
  const unsigned streams = static_cast<unsigned>(std::clamp<uint64_t>(count, 1, streams_));
  out_ = std::make_unique<RunOutput>(runs_, "run", run_, streams);
  ThreadPool& pool = pool_;
  RunOutput* out = out_.get();
  thread_.launch([out, &pool, records, order, count] { out->append_gathered(pool, records, order, count); },
                 [out] { return out->finish(); });
}

PendingSource BackgroundSpill::finish() {
  const RunFigures figures = thread_.finish(report_);
  out_.reset();
  count_run(figures, report_);
  ++report_.runs;
  // Of the gathering into the streams, the pool's gathers (the rest is
  // handing blocks over).
  report_.add_duration("write runs: the pool's gathers", figures.gather_s);
  return std::move(run_);
}

}  // namespace gsort
