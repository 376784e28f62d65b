#include "src/merge/held_runs.h"

#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

#include "src/core/errors.h"

namespace gsort {
namespace {

class HostHeldRuns final : public HeldRuns {
 public:
  explicit HostHeldRuns(uint64_t bytes) : HeldRuns(bytes), store_(bytes) {}
  std::vector<uint8_t*> write_blocks(uint64_t bytes, unsigned count) override {
    blocks_.assign(count, std::vector<uint8_t>(bytes));
    std::vector<uint8_t*> out;
    for (std::vector<uint8_t>& b : blocks_) out.push_back(b.data());
    return out;
  }
  std::string where() const override { return "the host's memory (a test's)"; }

 private:
  void store(uint64_t at, const uint8_t* data, uint64_t bytes) override { std::memcpy(store_.data() + at, data, bytes); }
  std::unique_ptr<MergeRun> bytes_at(uint64_t first, uint64_t size) const override {
    return merge_run_in_host(store_.data() + first, size);
  }

  std::vector<uint8_t> store_;
  std::vector<std::vector<uint8_t>> blocks_;
};

class InPlaceRuns final : public HeldRuns {
 public:
  InPlaceRuns(HostBuffer bytes, const std::vector<uint64_t>& bounds)
      : HeldRuns(std::max<uint64_t>(bounds.back(), 1)), bytes_(std::move(bytes)) {
    for (size_t r = 0; r + 1 < bounds.size(); ++r) run_in_place(bounds[r + 1] - bounds[r]);
  }
  std::string where() const override { return "the host's memory (sorted as the stream arrived)"; }
  bool on_device() const override { return false; }

 private:
  void store(uint64_t, const uint8_t*, uint64_t) override {
    throw Error("internal error: runs sorted in place take no more bytes");
  }
  std::unique_ptr<MergeRun> bytes_at(uint64_t first, uint64_t size) const override {
    return merge_run_in_host(bytes_.data() + first, size);
  }

  HostBuffer bytes_;
};

}  // namespace

void HeldRuns::check_room(uint64_t bytes) const {
  if (bytes > capacity_ - used()) {
    throw Error("internal error: the runs outgrow the " + std::to_string(capacity_) + " bytes reserved for them in " +
                where());
  }
}

void HeldRuns::append(const uint8_t* data, uint64_t bytes) {
  check_room(bytes);
  if (bytes > 0) store(used(), data, bytes);
  open_ += bytes;
}

void HeldRuns::end_run() {
  starts_.push_back(used());
  open_ = 0;
}

std::unique_ptr<HeldRuns> hold_runs_in_host(uint64_t bytes) {
  return std::make_unique<HostHeldRuns>(std::max<uint64_t>(bytes, 1));
}

std::unique_ptr<HeldRuns> hold_runs_in_place(HostBuffer bytes, const std::vector<uint64_t>& bounds) {
  return std::make_unique<InPlaceRuns>(std::move(bytes), bounds);
}

}  // namespace gsort
