// The process's anonymous memory at its peak: RssAnon from /proc/self/status,
// sampled every 20 ms on a thread of its own while this lives. That is the
// records, orders, buffers and pinned staging gsort holds, without the
// page-cache pages of a mapped output (or input) that VmHWM also counts: a
// sort through a 30 GB output mapping has a VmHWM of 30 GB whatever -S says.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

namespace gsort {

// RssAnon now, in bytes; 0 where /proc cannot tell.
uint64_t anonymous_bytes_now();

class AnonymousPeak {
 public:
  AnonymousPeak();
  ~AnonymousPeak();  // stops sampling
  AnonymousPeak(const AnonymousPeak&) = delete;
  AnonymousPeak& operator=(const AnonymousPeak&) = delete;

  // The peak so far, with one more sample taken now.
  uint64_t bytes();

 private:
  void sample();

  std::atomic<uint64_t> peak_{0};
  std::mutex mutex_;
  std::condition_variable stop_;
  bool stopping_ = false;
  std::thread thread_;  // last: starts once the members above exist
};

}  // namespace gsort
