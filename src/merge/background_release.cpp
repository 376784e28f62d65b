#include "src/merge/background_release.h"

#include "src/core/stopwatch.h"

namespace gsort {

BackgroundRelease::BackgroundRelease(const std::vector<const RunView*>& runs, const MergeRanges& ranges)
    : runs_(runs), ranges_(ranges), thread_([this] { loop(); }) {}

BackgroundRelease::~BackgroundRelease() { stop(); }

void BackgroundRelease::merged(size_t p) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    queued_.push_back(p);
  }
  changed_.notify_one();
}

double BackgroundRelease::stop(bool drain) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    draining_ = drain;
    if (!drain) queued_.clear();
  }
  changed_.notify_one();
  if (thread_.joinable()) thread_.join();
  return busy_s_;
}

void BackgroundRelease::loop() {
  for (;;) {
    size_t p;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      changed_.wait(lock, [this] { return stopping_ || !queued_.empty(); });
      if (queued_.empty() || (stopping_ && !draining_)) return;
      p = queued_.front();
      queued_.pop_front();
    }
    const Stopwatch freeing;
    for (size_t r = 0; r < runs_.size(); ++r) runs_[r]->release(ranges_.cuts[p][r], ranges_.cuts[p + 1][r]);
    busy_s_ += freeing.seconds();  // read by stop() after the join
  }
}

}  // namespace gsort
