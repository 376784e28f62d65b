// The page-table entries of a mapped output's filled stretches, dropped by
// a thread of its own while the writers go on filling the rest: the unmap
// at the end (which the commit waits for, 0.05-0.065 s a 2 GB output on
// the H200 host) then finds little left. The pages stay in the page cache,
// dirty, and fault back in if touched again. Whole stretches, a few a
// gigabyte: drops of a batch's few hundred KB from every writer thread
// cost a TLB shootdown each (91b2d8e), a stretch's one.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <thread>
#include <utility>

namespace gsort {

class DropBehind {
 public:
  // Stretches of at least this many bytes are handed to the thread.
  static constexpr uint64_t kStretch = uint64_t{256} << 20;

  DropBehind();
  // Waits for the drops handed over (the mapping must outlive them).
  ~DropBehind();
  DropBehind(const DropBehind&) = delete;
  DropBehind& operator=(const DropBehind&) = delete;

  // [p, p + bytes) is filled and will not be written again.
  void drop(uint8_t* p, uint64_t bytes);
  // Waits until every stretch handed over is dropped.
  void wait();

 private:
  void run();

  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::pair<uint8_t*, uint64_t>> stretches_;
  bool busy_ = false, stopping_ = false;
  std::thread thread_;  // last: started once the rest is made
};

}  // namespace gsort
