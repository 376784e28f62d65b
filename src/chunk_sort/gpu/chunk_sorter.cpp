#include "src/chunk_sort/gpu/chunk_sorter.h"

#include <algorithm>
#include <cstring>

#include "src/chunk_sort/gpu/host_merge.h"
#include "src/core/stopwatch.h"

namespace gsort::gpu {
namespace {

// Fewest indices a thread copies out of the bounce buffer: below it, handing
// out the task costs more than the copy.
constexpr uint64_t kCopyTaskIndices = 65536;

}  // namespace

ChunkSorter::ChunkSorter(DeviceContext& device, const uint8_t* records, ThreadPool& pool)
    : device_(device), records_(records), pool_(pool), group_(device.plan().streaming) {}

ChunkSorter::~ChunkSorter() {
  device_.synchronize_noexcept();
  device_.timer.reset();
}

void ChunkSorter::add_records(uint64_t available) {
  const uint64_t piece = device_.plan().piece_records;
  while (next_ < available) {
    const uint64_t end = std::min(next_ + piece, available);
    if (end - next_ < piece && !final_) break;  // a partial piece waits for more records
    enqueue_piece(next_, end);
    next_ = end;
  }
}

void ChunkSorter::enqueue_piece(uint64_t begin, uint64_t end) {
  const DevicePlan& plan = device_.plan();
  const uint32_t size = device_.record_size();
  const uint64_t capacity = group_.capacity;
  const uint64_t group = begin / capacity;
  if (group != group_index_) {  // pieces never straddle groups: capacity % piece_records == 0
    flush_group();
    group_index_ = group;
    wait_for_results_ = true;
  }
  const unsigned slot = static_cast<unsigned>(pieces_ % DeviceContext::kSlots);
  uint8_t* staged = device_.at<uint8_t>(plan.staging[slot]);
  // Host -> device, once the slot's previous piece has been extracted.
  device_.copy_in.wait(device_.slot_free[slot].get());
  const size_t copy = device_.timer.begin(Phase::kCopyIn, device_.copy_in);
  GSORT_CUDA_CHECK(cudaMemcpyAsync(staged, records_ + begin * size, (end - begin) * size, cudaMemcpyHostToDevice,
                                   device_.copy_in.get()));
  device_.timer.end(copy, device_.copy_in);
  device_.uploaded[slot].record(device_.copy_in);

  // Extraction, once the piece is there and the group's arrays are free.
  device_.compute.wait(device_.uploaded[slot].get());
  if (wait_for_results_) {
    device_.compute.wait(device_.results_copied.get());
    wait_for_results_ = false;
  }
  device_.extract_keys(staged, end - begin, group_, begin - group * capacity, static_cast<uint32_t>(begin));
  device_.slot_free[slot].record(device_.compute);
  ++pieces_;
}

kernels::SortedKeys ChunkSorter::sort_group() {
  const uint64_t first = group_index_ * group_.capacity;
  const size_t span = device_.timer.begin(Phase::kSort, device_.compute);
  const kernels::SortedKeys sorted = kernels::sort_keys(device_.format(), device_.sort_buffers(group_), next_ - first,
                                      static_cast<uint32_t>(first), device_.compute.get());
  device_.timer.end(span, device_.compute);
  device_.sorted.record(device_.compute);
  ++timings_.pieces;
  return sorted;
}

void ChunkSorter::flush_group() {
  const uint64_t count = next_ - group_index_ * group_.capacity;
  const kernels::SortedKeys sorted = sort_group();
  uint8_t* block = device_.result_block(runs_.size(), pool_);
  device_.copy_out.wait(device_.sorted.get());
  const size_t span = device_.timer.begin(Phase::kCopyOut, device_.copy_out);
  GSORT_CUDA_CHECK(cudaMemcpyAsync(block, sorted.order, count * 4, cudaMemcpyDeviceToHost, device_.copy_out.get()));
  GSORT_CUDA_CHECK(cudaMemcpyAsync(block + device_.result_keys_offset(), sorted.keys,
                                   count * device_.format().sort_key_bytes(), cudaMemcpyDeviceToHost,
                                   device_.copy_out.get()));
  device_.timer.end(span, device_.copy_out);
  device_.results_copied.record(device_.copy_out);
  runs_.push_back({block, count});
}

template <typename P>
void ChunkSorter::merge_runs(uint32_t* order, const KeyLayout& layout) {
  std::vector<SortedRun<P>> runs;
  for (const Run& r : runs_) {
    runs.push_back({reinterpret_cast<const uint32_t*>(r.block),
                    reinterpret_cast<const P*>(r.block + device_.result_keys_offset()), r.size});
  }
  const RecordTieBreak ties{&layout, records_, device_.format().words == 1};
  merge_sorted_runs(pool_, runs, ties, order);
}

void ChunkSorter::finish_order(uint64_t count, uint32_t* order, const KeyLayout& layout) {
  final_ = true;
  add_records(count);
  if (count == 0) return;
  if (runs_.empty()) {  // one group: its order goes straight to the caller
    const kernels::SortedKeys sorted = sort_group();
    device_.copy_out.wait(device_.sorted.get());
    copy_order_out(sorted.order, count, order);
    device_.synchronize();
  } else {
    flush_group();
    device_.synchronize();
    const Stopwatch start;
    const kernels::KeyFormat& f = device_.format();
    const kernels::WordType type = f.words == 1 ? f.last_type : kernels::WordType::kU64;
    switch (type) {
      case kernels::WordType::kU16: merge_runs<uint16_t>(order, layout); break;
      case kernels::WordType::kU32: merge_runs<uint32_t>(order, layout); break;
      case kernels::WordType::kU64: merge_runs<uint64_t>(order, layout); break;
    }
    timings_.merge_s += start.seconds();
  }
  device_.timer.collect(timings_);
}

void ChunkSorter::copy_order_out(const uint32_t* sorted, uint64_t count, uint32_t* order) {
  uint8_t* bounce = is_pinned(order) ? nullptr : device_.bounce_buffer(pool_);
  if (!bounce) {  // pinned: straight there (or no pinned bounce buffer to be had)
    const size_t span = device_.timer.begin(Phase::kCopyOut, device_.copy_out);
    GSORT_CUDA_CHECK(cudaMemcpyAsync(order, sorted, count * 4, cudaMemcpyDeviceToHost, device_.copy_out.get()));
    device_.timer.end(span, device_.copy_out);
    device_.copy_out.synchronize();
    return;
  }
  // Slices through two pinned slots: the device fills one while the pool
  // copies the other out, faster than the driver's own pageable copy.
  const uint64_t slice = DeviceContext::kBounceBytes / 4;
  const uint64_t slices = (count + slice - 1) / slice;
  const auto enqueue = [&](uint64_t k) {
    const uint64_t first = k * slice, n = std::min(slice, count - first);
    const size_t span = device_.timer.begin(Phase::kCopyOut, device_.copy_out);
    GSORT_CUDA_CHECK(cudaMemcpyAsync(bounce + (k % 2) * DeviceContext::kBounceBytes, sorted + first, n * 4,
                                     cudaMemcpyDeviceToHost, device_.copy_out.get()));
    device_.timer.end(span, device_.copy_out);
    device_.bounced[k % 2].record(device_.copy_out);
  };
  enqueue(0);
  const Stopwatch start;
  for (uint64_t k = 0; k < slices; ++k) {
    if (k + 1 < slices) enqueue(k + 1);  // its slot's previous slice was copied out last round
    GSORT_CUDA_CHECK(cudaEventSynchronize(device_.bounced[k % 2].get()));
    const uint64_t first = k * slice, n = std::min(slice, count - first);
    const uint8_t* from = bounce + (k % 2) * DeviceContext::kBounceBytes;
    const size_t tasks = std::min<size_t>(pool_.size(), (n + kCopyTaskIndices - 1) / kCopyTaskIndices);
    pool_.parallel_for(tasks, [&](size_t t) {
      const uint64_t b = split_point(n, tasks, t), e = split_point(n, tasks, t + 1);
      std::memcpy(order + first + b, from + b * 4, (e - b) * 4);
    });
  }
  timings_.copy_out_s += start.seconds();
}

}  // namespace gsort::gpu
