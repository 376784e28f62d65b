// DirectWrite::sort_and_write: the sort on a thread of its own hands the
// order over prefix by prefix; this thread gathers and writes each prefix
// while the sort goes on. With the CPU backend the first prefix is final
// after a pool's worth of its 256 buckets, so the write (the page cache's
// rate for one file, the slowest stage of an in-memory sort) starts almost
// at once.
#include "src/pipeline/direct_write.h"

#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

#include "src/core/process_clock.h"
#include "src/core/scoped_join.h"
#include "src/core/stopwatch.h"

namespace gsort {
namespace {

// How much of the order is final, handed from the sorting thread to the
// writing one, or the sort's error.
class OrderPrefix {
 public:
  void publish(uint64_t n) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      final_ = n;
    }
    changed_.notify_one();
  }
  void end() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ended_ = true;
    }
    changed_.notify_one();
  }
  void fail(std::exception_ptr error) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      error_ = std::move(error);
    }
    changed_.notify_one();
  }
  // Waits until more than `done` entries are final, or the sort has ended;
  // returns how many are final. Rethrows the sort's error.
  uint64_t wait_beyond(uint64_t done) {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return final_ > done || ended_ || error_; });
    if (error_) std::rethrow_exception(error_);
    return final_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  uint64_t final_ = 0;
  bool ended_ = false;
  std::exception_ptr error_;
};

}  // namespace

WriteBehind::Sink destination_sink(OutputTarget& output, OutputEncoder* encoder) {
  if (encoder) return [encoder](const uint8_t* data, size_t bytes) { encoder->write(data, bytes); };
  return [&file = output.file()](const uint8_t* data, size_t bytes) { file.write_all(data, bytes); };
}

void DirectWrite::write(const uint8_t* records, const uint32_t* order, uint64_t count) {
  std::unique_ptr<OutputWriter> out = out_.writer(count * out_.record_size());
  const Stopwatch t;
  meter_.phase("writing", count * out_.record_size(), &out_.written_bytes());
  out->append_gathered(pool_, records, order, count);
  out->finish();
  report_.output_records += out->records_written();
  report_.add_phase("gather+write", t.seconds());
}

SortWriteSpans sort_while_writing(uint64_t count, const std::function<void(const OrderProgress& ready)>& sort,
                                  const std::function<void()>& first,
                                  const std::function<void(uint64_t from, uint64_t to)>& write) {
  OrderPrefix prefix;
  SortWriteSpans spans;
  spans.sort = PhaseSpan{"sort", "sort", process_seconds(), 0};
  std::thread sorter([&] {
    try {
      sort([&](uint64_t n) { prefix.publish(n); });
      spans.sort.end_s = process_seconds();
      prefix.end();
    } catch (...) {
      prefix.fail(std::current_exception());
    }
  });
  // Joined on every way out: the sort reads what is written.
  ScopedJoin join_sorter(sorter);
  uint64_t written = 0;
  if (count == 0) prefix.wait_beyond(0);  // nothing to write: wait for the sort (and its error) only
  while (written < count) {
    const uint64_t final_now = prefix.wait_beyond(written);
    if (final_now <= written) throw std::logic_error("the sort ended with " + std::to_string(written) + " of " +
                                                     std::to_string(count) + " entries ordered");
    if (written == 0) {
      spans.write_start = process_seconds();
      first();
    }
    write(written, final_now);
    written = final_now;
  }
  if (count > 0) spans.write_end = process_seconds();
  join_sorter.join();
  return spans;
}

void DirectWrite::sort_and_write(const uint8_t* records, uint64_t count, uint32_t* order, const SortInParts& sort) {
  // Made first: an unwritable destination (or encoder, or a disk without
  // room for a mapped output) fails before the sort starts.
  std::unique_ptr<OutputWriter> out = out_.writer(count * out_.record_size());
  meter_.phase("sorting", 0, nullptr);
  SortWriteSpans spans = sort_while_writing(
      count, [&](const OrderProgress& ready) { sort(order, ready); },
      [&] { meter_.phase("writing", count * out_.record_size(), &out_.written_bytes()); },
      [&](uint64_t from, uint64_t to) { out->append_gathered(pool_, records, order + from, to - from); });
  out->finish();
  report_.output_records += out->records_written();
  report_.add_span(spans.sort);
  if (count > 0) report_.add_span(PhaseSpan{"gather+write", "main", spans.write_start, process_seconds()});
}

}  // namespace gsort
