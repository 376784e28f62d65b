#include "src/pipeline/background_spill.h"

#include <algorithm>
#include <chrono>

#include "src/core/process_clock.h"

namespace gsort {

BackgroundSpill::~BackgroundSpill() {
  if (!done_.valid()) return;
  try {
    done_.get();
  } catch (...) {
  }
}

bool BackgroundSpill::ended() const {
  return done_.valid() && done_.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
}

void BackgroundSpill::start(const uint8_t* records, const uint32_t* order, uint64_t count) {
  run_ = PendingSource();
  const unsigned streams = static_cast<unsigned>(std::clamp<uint64_t>(count, 1, streams_));
  out_ = std::make_unique<RunOutput>(runs_, "run", run_, streams);
  started_s_ = process_seconds();
  ThreadPool& pool = pool_;
  RunOutput* out = out_.get();
  done_ = std::async(std::launch::async, [out, &pool, records, order, count] {
    out->append_gathered(pool, records, order, count);
    Ended ended;
    ended.figures = out->finish();
    ended.at_s = process_seconds();
    return ended;
  });
}

PendingSource BackgroundSpill::finish() {
  const Ended ended = done_.get();  // leaves done_ invalid, also when it throws
  out_.reset();
  count_run(ended.figures, report_);
  // Of the span below, what gathering the records took (-v, --stats).
  report_.add_duration("write runs: gathering", ended.figures.gather_s);
  ++report_.runs;
  report_.add_span(PhaseSpan{"write runs", "spill", started_s_, ended.at_s});
  return std::move(run_);
}

}  // namespace gsort
