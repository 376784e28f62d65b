#include "src/merge/run_merger.h"

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <mutex>
#include <thread>

#include "src/core/errors.h"
#include "src/core/host_buffer.h"
#include "src/core/scoped_join.h"
#include "src/core/stopwatch.h"

namespace gsort {
namespace {

// One source's window: records [pos, end) of `buffer` are loaded and not
// yet merged; `exhausted` once the source has nothing more to give.
struct Window {
  RecordSource* source = nullptr;
  uint64_t capacity = 0;  // records the window holds
  HostBuffer buffer;
  uint64_t pos = 0;
  uint64_t end = 0;
  bool exhausted = false;
  uint64_t loaded = 0;            // records read from the source so far
  std::vector<uint8_t> last_seen;  // for --merge order checks across refills

  uint64_t size() const { return end - pos; }
  bool live() const { return pos < end || !exhausted; }
};

// A batch laid out end to end: segment i holds source i's records.
struct Batch {
  HostBuffer records;
  std::vector<uint64_t> starts;
  uint64_t count = 0;
  bool end = false;  // no records: the merge is complete
};

// Windows in proportion to the sources' sizes, when all are known: each
// window then spans about the same range of keys, so no small window holds
// the frontier (and every batch) back. The total stays sources x per_source;
// no window gets less than a sixteenth of per_source.
std::vector<uint64_t> window_sizes(const std::vector<std::unique_ptr<RecordSource>>& sources, uint64_t per_source) {
  std::vector<uint64_t> sizes(sources.size(), per_source);
  uint64_t total = 0;
  for (const auto& s : sources) {
    if (s->size_hint() == 0) return sizes;
    total += s->size_hint();
  }
  const uint64_t budget = per_source * sources.size();
  const uint64_t least = std::max<uint64_t>(1, per_source / 16);
  for (size_t i = 0; i < sources.size(); ++i) {
    const uint64_t share = static_cast<uint64_t>(static_cast<long double>(budget) * sources[i]->size_hint() / total);
    sizes[i] = std::min(std::max(share, least), sources[i]->size_hint());
  }
  return sizes;
}

class RunMerger {
 public:
  RunMerger(std::vector<std::unique_ptr<RecordSource>>& sources, const KeyLayout& layout, SortBackend& backend,
              ThreadPool& pool, const MergeOptions& options)
      : layout_(layout),
        backend_(backend),
        pool_(pool),
        options_(options),
        rs_(layout.record_size()) {
    const std::vector<uint64_t> capacity = window_sizes(sources, options.window_records);
    uint64_t total = 0;
    for (size_t i = 0; i < sources.size(); ++i) {
      Window win;
      win.source = sources[i].get();
      win.capacity = capacity[i];
      win.buffer = HostBuffer::allocate_pageable(win.capacity * rs_);
      if (options.verify_sources_sorted) win.last_seen.resize(rs_);
      windows_.push_back(std::move(win));
      total += capacity[i];
    }
    for (Batch& b : batches_) {
      b.records = backend.allocate_host(total * rs_);
      b.starts.resize(windows_.size() + 1);
    }
    order_.reset(new uint32_t[std::max<uint64_t>(total, 1)]);
  }

  uint64_t run(OutputWriter& out, MergeTimings* timings) {
    MergeTimings local;
    MergeTimings& t = timings ? *timings : local;
    // A pipeline stage of its own: batch k+1 is prepared while batch k is
    // ordered and written.
    std::thread producer([&] { produce(t); });
    ScopedJoin join_producer(producer, [this] { stop(); });
    uint64_t merged = 0;
    for (size_t k = 0;; k ^= 1) {
      Stopwatch step;
      Batch& b = wait_for(k, true);
      t.wait_s += step.lap();
      if (b.end) break;
      t.largest_batch = std::max(t.largest_batch, b.count);
      backend_.merge_order(b.records.data(), b.starts.data(), windows_.size(), order_.get());
      t.order_s += step.lap();
      out.append_gathered(pool_, b.records.data(), order_.get(), b.count);
      t.output_s += step.seconds();
      merged += b.count;
      ++t.batches;
      release(k);
    }
    join_producer.join();
    if (error_) std::rethrow_exception(error_);
    return merged;
  }

 private:
  // The producer fills batches_[0], [1], [0], ... A slot is full when
  // `full_[k]`; the consumer empties it and hands it back.
  void produce(MergeTimings& t) {
    try {
      for (size_t k = 0;; k ^= 1) {
        Batch& b = wait_for(k, false);
        if (stopping()) return;
        const Stopwatch preparing;
        prepare(b);
        t.prepare_s += preparing.seconds();
        publish(k);
        if (b.end) return;
      }
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex_);
      error_ = std::current_exception();
      batches_[0].end = batches_[1].end = true;
      full_[0] = full_[1] = true;
      changed_.notify_all();
    }
  }

  // Refills the windows and lays the next batch out in b.
  void prepare(Batch& b) {
    refill();
    const size_t frontier = find_frontier();
    std::vector<uint64_t> take(windows_.size());
    if (frontier == kNone &&
        std::none_of(windows_.begin(), windows_.end(), [](const Window& w) { return w.size() > 0; })) {
      b.count = 0;
      b.end = true;
      return;
    }
    count_takes(frontier, take);
    b.starts[0] = 0;
    for (size_t i = 0; i < windows_.size(); ++i) b.starts[i + 1] = b.starts[i] + take[i];
    b.count = b.starts.back();
    pool_.parallel_for(windows_.size(), [&](size_t i) {
      if (take[i] == 0) return;
      std::memcpy(b.records.data() + b.starts[i] * rs_, windows_[i].buffer.data() + windows_[i].pos * rs_,
                  take[i] * rs_);
    });
    for (size_t i = 0; i < windows_.size(); ++i) windows_[i].pos += take[i];
  }

  // Waits until slot k is full (consumer) or empty (producer).
  Batch& wait_for(size_t k, bool want_full) {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return full_[k] == want_full || stopping_; });
    if (want_full && stopping_ && !full_[k]) throw Error("merge stopped");
    return batches_[k];
  }
  void publish(size_t k) {
    std::lock_guard<std::mutex> lock(mutex_);
    full_[k] = true;
    changed_.notify_all();
  }
  void release(size_t k) {
    std::lock_guard<std::mutex> lock(mutex_);
    full_[k] = false;
    changed_.notify_all();
  }
  void stop() {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    changed_.notify_all();
  }
  bool stopping() {
    std::lock_guard<std::mutex> lock(mutex_);
    return stopping_;
  }

 private:
  static constexpr size_t kNone = ~size_t{0};

  const uint8_t* record(const Window& w, uint64_t i) const { return w.buffer.data() + i * rs_; }

  // Tops up the windows with room for an eighth of their records, in parallel.
  void refill() {
    pool_.parallel_for(windows_.size(), [&](size_t i) {
      Window& w = windows_[i];
      const uint64_t cap = w.capacity;
      // Top up any window that has room for an eighth of it: a window left
      // short keeps the frontier (and so every batch) small.
      if (w.exhausted || w.size() * 8 > cap * 7) return;
      const uint64_t keep = w.size();
      if (keep > 0 && w.pos > 0) std::memmove(w.buffer.data(), record(w, w.pos), keep * rs_);
      w.pos = 0;
      w.end = keep;
      while (w.end < cap) {
        const uint64_t got = w.source->read(w.buffer.data() + w.end * rs_, cap - w.end);
        if (got == 0) {
          w.exhausted = true;
          break;
        }
        if (options_.verify_sources_sorted) verify_sorted(w, w.end, got);
        if (options_.bytes_read) options_.bytes_read->fetch_add(got * rs_, std::memory_order_relaxed);
        w.end += got;
      }
    });
  }

  // Records [from, from+count) were just read into w: each must not sort
  // before the one above it.
  void verify_sorted(Window& w, uint64_t from, uint64_t count) {
    for (uint64_t i = 0; i < count; ++i) {
      const uint8_t* rec = record(w, from + i);
      const uint8_t* prev = (from + i > 0) ? rec - rs_ : (w.loaded > 0 ? w.last_seen.data() : nullptr);
      if (prev && layout_.compare(prev, rec) > 0) {
        throw DataError(w.source->name() + ": input to --merge is not sorted (record " +
                        std::to_string(w.loaded + i + 1) + " sorts before the one above it)");
      }
    }
    w.loaded += count;
    std::memcpy(w.last_seen.data(), record(w, from + count - 1), rs_);
  }

  // The source whose last windowed record is smallest among sources that
  // may still deliver more; kNone when every source is fully loaded.
  size_t find_frontier() const {
    size_t best = kNone;
    for (size_t i = 0; i < windows_.size(); ++i) {
      const Window& w = windows_[i];
      if (w.exhausted) continue;
      // A source that is not exhausted always has a full window here.
      if (best == kNone || layout_.compare(record(w, w.end - 1), record(windows_[best], windows_[best].end - 1)) < 0) {
        best = i;  // ties keep the lower source, which sorts first
      }
    }
    return best;
  }

  // take[i]: how many of window i's records sort at or before the frontier
  // record (key, then source number).
  void count_takes(size_t frontier, std::vector<uint64_t>& take) const {
    if (frontier == kNone) {
      for (size_t i = 0; i < windows_.size(); ++i) take[i] = windows_[i].size();
      return;
    }
    const Window& f = windows_[frontier];
    const uint8_t* bound = record(f, f.end - 1);
    for (size_t i = 0; i < windows_.size(); ++i) {
      const Window& w = windows_[i];
      if (i == frontier) {
        take[i] = w.size();
        continue;
      }
      // Sources before the frontier's take their equal keys too.
      const bool take_equal = i < frontier;
      uint64_t lo = w.pos, hi = w.end;
      while (lo < hi) {
        const uint64_t mid = lo + (hi - lo) / 2;
        const int c = layout_.compare(record(w, mid), bound);
        if (c < 0 || (c == 0 && take_equal)) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      take[i] = lo - w.pos;
    }
  }

  const KeyLayout& layout_;
  SortBackend& backend_;
  ThreadPool& pool_;  // shared by preparing a batch and writing the last one
  const MergeOptions& options_;
  const uint32_t rs_;
  std::vector<Window> windows_;
  Batch batches_[2];
  std::unique_ptr<uint32_t[]> order_;

  std::mutex mutex_;
  std::condition_variable changed_;
  bool full_[2] = {false, false};
  bool stopping_ = false;
  std::exception_ptr error_;
};

}  // namespace

uint64_t merge_runs(std::vector<std::unique_ptr<RecordSource>>& sources, const KeyLayout& layout,
                    SortBackend& backend, ThreadPool& pool, const MergeOptions& options, OutputWriter& out,
                    MergeTimings* timings) {
  const Stopwatch setting_up;
  RunMerger merger(sources, layout, backend, pool, options);
  if (timings) timings->setup_s += setting_up.seconds();
  return merger.run(out, timings);
}

}  // namespace gsort
