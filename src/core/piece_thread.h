// A chunk sorted in pieces while it arrives (issue 38), whatever its unit:
// records counted, or bytes of whole lines. A thread of its own waits
// until next_end finds a piece among what has arrived, hands it to `sort`
// (on the caller's pool, as it likes), notes where the piece ended, and
// goes on until stopped. The records' StreamPieceSort and the lines'
// ArrivingLinePieces each say where a piece ends and how it is sorted.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace gsort {

class PieceThread {
 public:
  static constexpr uint64_t kUnknown = UINT64_MAX;
  // The end of the next piece from `begin`, now that [0, available) has
  // arrived and the chunk ends at `final` (kUnknown until it is known);
  // 0: none yet (the thread waits for more).
  using NextEnd = std::function<uint64_t(uint64_t begin, uint64_t available, uint64_t final)>;
  // Sorts [begin, end); returns where the piece ended (before `end` where
  // it takes less). Runs on the piece thread.
  using SortPiece = std::function<uint64_t(uint64_t begin, uint64_t end)>;

  // Starts the thread: whatever next_end and sort use must exist already.
  PieceThread(NextEnd next_end, SortPiece sort);
  ~PieceThread();  // stop()
  PieceThread(const PieceThread&) = delete;
  PieceThread& operator=(const PieceThread&) = delete;

  // [0, n) has arrived (the reader's thread).
  void arrived(uint64_t n);
  // How much has arrived.
  uint64_t available();
  // The chunk ends at n: waits until its every piece is sorted, then stops
  // the thread; rethrows what the thread threw. only_if_begun: where no
  // piece has begun, only stops the thread, and returns false.
  bool finish(uint64_t n, bool only_if_begun = false);
  // Waits until the thread has taken every piece next_end finds (tests).
  void wait_caught_up();
  // Stops taking pieces and waits for the one under way.
  void stop();

  // Piece p is [bounds()[p], bounds()[p + 1]); read once finished or stopped.
  const std::vector<uint64_t>& bounds() const { return bounds_; }

 private:
  void loop();
  // Under mutex_: the next piece's end, 0 for none.
  uint64_t next_end_locked() const { return next_end_(bounds_.back(), available_, final_); }

  const NextEnd next_end_;
  const SortPiece sort_;
  std::vector<uint64_t> bounds_{0};
  std::mutex mutex_;
  std::condition_variable changed_;
  uint64_t available_ = 0;
  uint64_t final_ = kUnknown;
  bool stopping_ = false;
  bool idle_ = true;  // no piece under way
  std::exception_ptr error_;
  std::thread thread_;  // last: starts once the members above exist
};

}  // namespace gsort
