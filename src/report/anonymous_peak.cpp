#include "src/report/anonymous_peak.h"

#include <chrono>

#include "src/core/address_space.h"

namespace gsort {

uint64_t anonymous_bytes_now() { return process_status_bytes("RssAnon"); }

AnonymousPeak::AnonymousPeak()
    : thread_([this] {
        std::unique_lock<std::mutex> lock(mutex_);
        do {
          sample();
        } while (!stop_.wait_for(lock, std::chrono::milliseconds(20), [this] { return stopping_; }));
      }) {}

AnonymousPeak::~AnonymousPeak() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  stop_.notify_all();
  thread_.join();
}

void AnonymousPeak::sample() {
  const uint64_t now = anonymous_bytes_now();
  uint64_t seen = peak_.load();
  while (now > seen && !peak_.compare_exchange_weak(seen, now)) {
  }
}

uint64_t AnonymousPeak::bytes() {
  sample();
  return peak_.load();
}

}  // namespace gsort
