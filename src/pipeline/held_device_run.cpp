#include "src/pipeline/held_device_run.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>

namespace gsort {
namespace {

class HeldRunSource final : public RecordSource {
 public:
  HeldRunSource(std::unique_ptr<ResidentSort> resident, uint64_t records, uint32_t record_size)
      : resident_(std::move(resident)), records_(records), record_size_(record_size) {}

  std::string name() const override { return "the run held in GPU memory"; }
  uint64_t size_hint() const override { return records_; }

  uint64_t read(uint8_t* buf, uint64_t max_records) override {
    uint64_t done = 0;
    while (done < max_records && resident_) {
      if (left_ == 0) {
        left_ = resident_->next_sorted(&at_);
        if (left_ == 0) {
          resident_.reset();  // read to the end: the device and the slots go back now
          break;
        }
      }
      const uint64_t n = std::min(left_, max_records - done);
      std::memcpy(buf + done * record_size_, at_, static_cast<size_t>(n * record_size_));
      at_ += n * record_size_;
      left_ -= n;
      done += n;
    }
    return done;
  }

 private:
  std::unique_ptr<ResidentSort> resident_;
  const uint64_t records_;
  const uint32_t record_size_;
  const uint8_t* at_ = nullptr;  // in the slot next_sorted gave last
  uint64_t left_ = 0;            // records there not yet read
};

// What open_held hands over once: a copy of the PendingSource (std::function
// is copied) shares it, and the source it opens owns the run from then on.
struct HeldRun {
  std::unique_ptr<ResidentSort> resident;
  uint64_t records = 0;
  uint32_t record_size = 0;
};

}  // namespace

PendingSource held_device_run(std::unique_ptr<ResidentSort> resident, uint64_t records, uint32_t record_size,
                              uint64_t staging_bytes) {
  auto held = std::make_shared<HeldRun>(HeldRun{std::move(resident), records, record_size});
  PendingSource run;
  run.host_bytes = staging_bytes;
  run.open_held = [held]() -> std::unique_ptr<RecordSource> {
    if (!held->resident) throw std::logic_error("the run held in GPU memory was opened twice");
    return std::make_unique<HeldRunSource>(std::move(held->resident), held->records, held->record_size);
  };
  return run;
}

}  // namespace gsort
