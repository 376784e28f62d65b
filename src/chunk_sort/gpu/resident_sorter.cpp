#include "src/chunk_sort/gpu/resident_sorter.h"

#include <stdexcept>
#include <string>
#include <utility>

#include "kernels/bucket_partition.h"
#include "kernels/key_sort.h"

namespace gsort::gpu {

ResidentSorter::ResidentSorter(DeviceContext& device, std::unique_ptr<DeviceHold> hold, const ResidentPlan& plan,
                               ThreadPool& pool, Done done)
    : device_(device),
      hold_(std::move(hold)),
      plan_(plan),
      slot_bytes_(plan.slot_records * device.record_size()),
      staging_(allocate_pinned_host(device.device(), 2 * plan.slot_records * device.record_size(), pool)),
      done_(std::move(done)) {}

ResidentSorter::~ResidentSorter() {
  device_.synchronize_noexcept();
  device_.timer.reset();
}

uint8_t* ResidentSorter::fill_slot() {
  // Its last upload must have left it (an event never recorded is complete).
  GSORT_CUDA_CHECK(cudaEventSynchronize(uploaded_[fill_].get()));
  return host_slot(fill_);
}

void ResidentSorter::upload(uint64_t count) {
  if (sorted_ || count > plan_.slot_records || sent_ + count > plan_.records) {
    throw std::logic_error("resident sort: " + std::to_string(sent_ + count) + " records sent for " +
                           std::to_string(plan_.records));
  }
  if (count == 0) return;
  const uint32_t size = device_.record_size();
  uint8_t* records = device_.at<uint8_t>(plan_.records_at) + sent_ * size;
  const size_t copy = device_.timer.begin(Phase::kCopyIn, device_.copy_in);
  GSORT_CUDA_CHECK(
      cudaMemcpyAsync(records, host_slot(fill_), count * size, cudaMemcpyHostToDevice, device_.copy_in.get()));
  device_.timer.end(copy, device_.copy_in);
  uploaded_[fill_].record(device_.copy_in);

  device_.compute.wait(uploaded_[fill_].get());
  device_.extract_keys(records, count, plan_.group, sent_, static_cast<uint32_t>(sent_));
  sent_ += count;
  fill_ ^= 1u;
}

void ResidentSorter::sort() {
  if (sorted_) throw std::logic_error("resident sort: sorted twice");
  sorted_ = true;
  slices_ = (sent_ + plan_.slot_records - 1) / plan_.slot_records;
  if (sent_ == 0) return;
  const size_t span = device_.timer.begin(Phase::kSort, device_.compute);
  const kernels::SortedKeys keys =
      kernels::sort_keys(device_.format(), device_.sort_buffers(plan_.group), sent_, 0, device_.compute.get());
  device_.timer.end(span, device_.compute);
  order_ = keys.order;
  timings_.chunks = 1;
  timings_.pieces = 1;
}

void ResidentSorter::enqueue_slice(uint64_t k) {
  const unsigned s = static_cast<unsigned>(k % 2);
  const uint64_t first = k * plan_.slot_records;
  const uint64_t n = std::min(plan_.slot_records, sent_ - first);
  const uint32_t size = device_.record_size();
  uint8_t* gather = device_.at<uint8_t>(plan_.gather[s]);
  // The gather slot's last slice must be on the host first.
  device_.compute.wait(downloaded_[s].get());
  kernels::launch_gather_records(device_.at<uint8_t>(plan_.records_at), size, order_ + first, n, gather,
                                 device_.compute.get());
  gathered_[s].record(device_.compute);
  device_.copy_out.wait(gathered_[s].get());
  const size_t span = device_.timer.begin(Phase::kCopyOut, device_.copy_out);
  GSORT_CUDA_CHECK(cudaMemcpyAsync(host_slot(s), gather, n * size, cudaMemcpyDeviceToHost, device_.copy_out.get()));
  device_.timer.end(span, device_.copy_out);
  downloaded_[s].record(device_.copy_out);
}

uint64_t ResidentSorter::next_sorted(const uint8_t** records) {
  if (!sorted_) throw std::logic_error("resident sort: sorted records asked for before the sort");
  device_.make_current();  // a merge may read a held run on any of its threads
  if (next_slice_ >= slices_) {
    if (next_slice_ == slices_ && slices_ > 0) {  // once, at the end: the device's phase times
      device_.synchronize();
      device_.timer.collect(timings_);
      if (done_) done_(timings_);
      ++next_slice_;
    }
    return 0;
  }
  const uint64_t k = next_slice_++;
  if (k == 0) enqueue_slice(0);
  // The other host slot was handed out last call, and is free again now.
  if (k + 1 < slices_) enqueue_slice(k + 1);
  GSORT_CUDA_CHECK(cudaEventSynchronize(downloaded_[k % 2].get()));
  *records = host_slot(static_cast<unsigned>(k % 2));
  return std::min(plan_.slot_records, sent_ - k * plan_.slot_records);
}

}  // namespace gsort::gpu
