#include "src/merge/background_release.h"

#include "src/core/stopwatch.h"

namespace gsort {

BackgroundRelease::BackgroundRelease(const std::vector<const RunView*>& runs, const MergeRanges& ranges)
    : runs_(runs),
      ranges_(ranges),
      merged_(ranges.ranges(), false),
      frontier_(ranges.ranges()),
      cut_(ranges.ranges()),
      thread_([this] { loop(); }) {}

BackgroundRelease::~BackgroundRelease() { stop(); }

void BackgroundRelease::merged(size_t p) {
  bool moved = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    merged_[p] = true;
    while (frontier_ > 0 && merged_[frontier_ - 1]) {
      --frontier_;
      moved = true;
    }
  }
  if (moved) changed_.notify_one();
}

size_t BackgroundRelease::frontier() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return frontier_;
}

double BackgroundRelease::stop(bool drain) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    draining_ = drain;
  }
  changed_.notify_one();
  if (thread_.joinable()) thread_.join();
  return busy_s_;
}

void BackgroundRelease::cut_to(size_t frontier) {
  const Stopwatch cutting;
  for (size_t r = 0; r < runs_.size(); ++r) runs_[r]->release_from(ranges_.cuts[frontier][r]);
  busy_s_ += cutting.seconds();  // read by stop() after the join
}

void BackgroundRelease::loop() {
  for (;;) {
    size_t to;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      changed_.wait(lock, [this] { return stopping_ || frontier_ < cut_; });
      if (stopping_ && !(draining_ && frontier_ < cut_)) return;
      to = frontier_;
      cut_ = to;
    }
    cut_to(to);
  }
}

}  // namespace gsort
