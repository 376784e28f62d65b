#include "src/chunk_sort/gpu/phase_timer.h"

namespace gsort::gpu {

cuda::Event& PhaseTimer::next_event() {
  if (used_ == events_.size()) events_.emplace_back(cuda::Event::Timing::kOn);
  return events_[used_++];
}

size_t PhaseTimer::begin(Phase phase, const cuda::Stream& stream) {
  const size_t start = used_;
  next_event().record(stream);
  spans_.push_back({phase, start, start});
  return spans_.size() - 1;
}

void PhaseTimer::end(size_t span, const cuda::Stream& stream) {
  spans_[span].stop = used_;
  next_event().record(stream);
}

void PhaseTimer::collect(BackendTimings& t) {
  for (const Span& s : spans_) {
    if (s.stop == s.start) continue;  // never ended (an exception in between)
    float ms = 0;
    GSORT_CUDA_CHECK(cudaEventElapsedTime(&ms, events_[s.start].get(), events_[s.stop].get()));
    const double seconds = ms / 1e3;
    switch (s.phase) {
      case Phase::kCopyIn: t.copy_in_s += seconds; break;
      case Phase::kExtract: t.extract_s += seconds; break;
      case Phase::kSort: t.sort_s += seconds; break;
      case Phase::kCopyOut: t.copy_out_s += seconds; break;
    }
  }
  reset();
}

}  // namespace gsort::gpu
