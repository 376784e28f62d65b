#include "src/core/device_budget.h"

#include <cstdint>

namespace gsort {

bool DeviceBudget::take(uint64_t bytes) {
  if (cap_ == 0) {
    taken_.fetch_add(bytes);
    return true;
  }
  uint64_t now = taken_.load();
  do {
    if (bytes > cap_ - now) return false;
  } while (!taken_.compare_exchange_weak(now, now + bytes));
  return true;
}

uint64_t DeviceBudget::left() const {
  if (cap_ == 0) return UINT64_MAX;
  const uint64_t now = taken_.load();
  return now >= cap_ ? 0 : cap_ - now;
}

bool DeviceBudgetShare::hold(uint64_t bytes) {
  if (budget_) {
    if (bytes > held_) {
      if (!budget_->take(bytes - held_)) return false;
    } else {
      budget_->give_back(held_ - bytes);
    }
  }
  held_ = bytes;
  return true;
}

}  // namespace gsort
