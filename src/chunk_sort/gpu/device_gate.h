// Who holds the device: one chunk at a time. Unlike std::mutex, a thread
// may try to take the gate it already holds (try_acquire returns false),
// which happens when one thread starts a chunk while its previous chunk's
// session still holds the device.
#pragma once

#include <condition_variable>
#include <mutex>

namespace gsort::gpu {

class DeviceGate {
 public:
  bool try_acquire() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (busy_) return false;
    busy_ = true;
    return true;
  }
  void acquire() {
    std::unique_lock<std::mutex> lock(mutex_);
    free_.wait(lock, [this] { return !busy_; });
    busy_ = true;
  }
  void release() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      busy_ = false;
    }
    free_.notify_one();
  }

 private:
  std::mutex mutex_;
  std::condition_variable free_;
  bool busy_ = false;
};

// Holds the gate for a scope (acquired in the constructor, or later by the
// owner through try_acquire / acquire); releases it on destruction.
class DeviceHold {
 public:
  explicit DeviceHold(DeviceGate& gate) : gate_(gate) {}
  ~DeviceHold() { release(); }
  DeviceHold(const DeviceHold&) = delete;
  DeviceHold& operator=(const DeviceHold&) = delete;

  bool try_acquire() { return held_ = gate_.try_acquire(); }
  void acquire() {
    gate_.acquire();
    held_ = true;
  }
  void release() {
    if (held_) gate_.release();
    held_ = false;
  }

 private:
  DeviceGate& gate_;
  bool held_ = false;
};

}  // namespace gsort::gpu
