// Device-side timing of the backend's phases: a pair of timing events
// around each enqueued operation, read back once the chunk is done.
// Events are pooled and reused from chunk to chunk.
#pragma once

#include <cstddef>
#include <vector>

#include "src/cuda/resources.h"
#include "src/chunk_sort/sort_backend.h"

namespace gsort::gpu {

enum class Phase { kCopyIn, kExtract, kSort, kCopyOut };

class PhaseTimer {
 public:
  // Records the start of an operation about to be enqueued on `stream`.
  size_t begin(Phase phase, const cuda::Stream& stream);
  // Records its end; `span` is what begin returned.
  void end(size_t span, const cuda::Stream& stream);
  // After the streams are synchronised: adds every span's time to `t`, and
  // forgets the spans.
  void collect(BackendTimings& t);
  // Forgets the spans without reading them (after a failure).
  void reset() { spans_.clear(); used_ = 0; }

 private:
  struct Span {
    Phase phase;
    size_t start, stop;
  };
  cuda::Event& next_event();

  std::vector<cuda::Event> events_;
  size_t used_ = 0;
  std::vector<Span> spans_;
};

}  // namespace gsort::gpu
