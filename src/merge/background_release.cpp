#include "src/merge/background_release.h"

#include "src/core/stopwatch.h"

namespace gsort {

namespace {

std::vector<std::pair<size_t, size_t>> segment_files(const std::vector<const RunView*>& runs) {
  std::vector<std::pair<size_t, size_t>> files;
  for (size_t r = 0; r < runs.size(); ++r) {
    for (size_t s = 0; s < runs[r]->segment_count(); ++s) files.emplace_back(r, s);
  }
  return files;
}

}  // namespace

BackgroundRelease::BackgroundRelease(const std::vector<const RunView*>& runs, const MergeRanges& ranges,
                                     ThreadPool* pool)
    : runs_(runs),
      ranges_(ranges),
      pool_(pool),
      files_(segment_files(runs)),
      merged_(ranges.ranges(), false),
      frontier_(ranges.ranges()),
      cut_(ranges.ranges()),
      thread_([this] { loop(); }) {}

BackgroundRelease::~BackgroundRelease() { finish(false, false); }

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

bool BackgroundRelease::cutting() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return cutting_;
}

size_t BackgroundRelease::frontier() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return frontier_;
}

double BackgroundRelease::stop(bool drain) {
  finish(drain, pool_ != nullptr && !drain);
  return busy_s_;
}

void BackgroundRelease::finish(bool drain, bool help) {
  size_t under_way = 0;
  bool cutting = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    draining_ = drain;
    cutting = cutting_;
    under_way = cut_;
  }
  changed_.notify_one();
  // Stopping (not draining), the thread starts no other cut: the files of
  // this one left to cut are shared out among the pool's threads.
  if (help && cutting) {
    pool_->parallel_for(pool_->size(), [this, under_way](size_t) { helped_ += cut_files(under_way); });
  }
  if (thread_.joinable()) thread_.join();
}

size_t BackgroundRelease::cut_files(size_t frontier) {
  size_t cut = 0;
  for (size_t i = next_file_.fetch_add(1); i < files_.size(); i = next_file_.fetch_add(1), ++cut) {
    const auto [r, s] = files_[i];
    runs_[r]->release_segment_from(s, ranges_.cuts[frontier][r]);
  }
  return cut;
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
      next_file_.store(0);
      cutting_ = true;
    }
    const Stopwatch cutting;
    cut_files(to);
    busy_s_ += cutting.seconds();  // read by stop() after the join
    std::lock_guard<std::mutex> lock(mutex_);
    cutting_ = false;
  }
}

}  // namespace gsort
