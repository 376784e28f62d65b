// --gpu-memory for a whole job: one account that every user of the
// device's memory takes its bytes from (for lines, the GPU sorter's entry
// buffers and the store that holds the runs), so that together they never
// pass the cap, whichever starts first. Only an account: each user still
// allocates its own memory and checks what the device has free. No CUDA
// here; thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <utility>

namespace gsort {

class DeviceBudget {
 public:
  // cap: the bytes all users may take together; 0, no cap (the device's
  // free memory is the only limit).
  explicit DeviceBudget(uint64_t cap) : cap_(cap) {}
  DeviceBudget(const DeviceBudget&) = delete;
  DeviceBudget& operator=(const DeviceBudget&) = delete;

  // Takes `bytes`, or nothing and false where they would pass the cap.
  bool take(uint64_t bytes);
  void give_back(uint64_t bytes) { taken_.fetch_sub(bytes); }

  uint64_t taken() const { return taken_.load(); }
  // What is left to take (UINT64_MAX without a cap).
  uint64_t left() const;

 private:
  const uint64_t cap_;
  std::atomic<uint64_t> taken_{0};
};

// Bytes one user holds of a budget, given back when it is reset or
// destroyed. Without a budget it holds whatever it is asked to.
class DeviceBudgetShare {
 public:
  explicit DeviceBudgetShare(std::shared_ptr<DeviceBudget> budget = nullptr) : budget_(std::move(budget)) {}
  DeviceBudgetShare(DeviceBudgetShare&& other) noexcept : budget_(std::move(other.budget_)), held_(other.held_) {
    other.held_ = 0;
  }
  DeviceBudgetShare& operator=(DeviceBudgetShare&&) = delete;
  ~DeviceBudgetShare() { reset(); }

  // Holds `bytes` in all (more or fewer than now); false, holding what it
  // held, where the budget has not the more.
  bool hold(uint64_t bytes);
  void reset() { hold(0); }
  uint64_t held() const { return held_; }

 private:
  std::shared_ptr<DeviceBudget> budget_;
  uint64_t held_ = 0;
};

}  // namespace gsort
