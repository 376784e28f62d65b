#include "src/lines/sort/gpu/sort_gpu.h"

#include <algorithm>
#include <vector>

#include "kernels/line_sort.h"
#include "src/core/errors.h"
#include "src/chunk_sort/gpu/device_context.h"
#include "src/core/host_buffer.h"
#include "src/cuda/check.h"
#include "src/cuda/resources.h"
#include "src/keys/line_key.h"
#include "src/lines/sort/tie_refine.h"

namespace gsort {
namespace {

// The device's copy of one chunk and the sort's arrays, grown as needed.
struct DeviceArrays {
  cuda::DeviceBuffer text, starts, keys_a, keys_b, vals, longest, temp;
  uint64_t text_bytes = 0, lines = 0;

  void reserve(uint64_t bytes, uint64_t n) {
    if (bytes > text_bytes) {
      text = cuda::DeviceBuffer();
      text = cuda::DeviceBuffer(bytes);
      text_bytes = bytes;
    }
    if (n <= lines) return;
    for (cuda::DeviceBuffer* b : {&starts, &keys_a, &keys_b, &vals, &longest, &temp}) *b = cuda::DeviceBuffer();
    starts = cuda::DeviceBuffer((n + 1) * sizeof(uint64_t));
    keys_a = cuda::DeviceBuffer(n * sizeof(uint64_t));
    keys_b = cuda::DeviceBuffer(n * sizeof(uint64_t));
    vals = cuda::DeviceBuffer(9 * n * sizeof(uint32_t));
    longest = cuda::DeviceBuffer((n + 1) * sizeof(uint64_t));
    temp = cuda::DeviceBuffer(kernels::line_sort_temp_bytes(static_cast<uint32_t>(n)));
    lines = n;
  }

  kernels::LineSortBuffers buffers() const {
    kernels::LineSortBuffers b;
    b.keys_a = reinterpret_cast<uint64_t*>(keys_a.data());
    b.keys_b = reinterpret_cast<uint64_t*>(keys_b.data());
    uint32_t* v = reinterpret_cast<uint32_t*>(vals.data());
    uint32_t** arrays[] = {&b.vals_a, &b.vals_b, &b.vals_c, &b.order, &b.head, &b.seg, &b.segkey_a, &b.segkey_b,
                           &b.positions};
    for (size_t i = 0; i < 9; ++i) *arrays[i] = v + i * lines;
    b.seg_longest = reinterpret_cast<uint64_t*>(longest.data());
    b.temp = temp.data();
    b.temp_bytes = temp.size();
    return b;
  }
};

class GpuLineSorter final : public LineSorter {
 public:
  GpuLineSorter(const LineSpec& spec, ThreadPool& pool, int device, uint64_t memory_cap, const Log* log)
      : spec_(spec),
        pool_(pool),
        device_(selected(device)),
        memory_cap_(memory_cap),
        log_(log),
        cpu_(make_cpu_line_sorter(spec, pool)) {}

  std::string describe() const override { return "gpu (device " + std::to_string(device_) + ")"; }
  // Its own, or the CPU sorter's for chunks it leaves to the CPU.
  uint64_t bytes_per_line() const override {
    return std::max<uint64_t>(2 * sizeof(KeyEntry) + sizeof(LineCache) + sizeof(uint32_t), cpu_->bytes_per_line());
  }
  HostBuffer allocate_host(size_t bytes) override {
    GSORT_CUDA_CHECK(cudaSetDevice(device_));
    return gpu::allocate_pinned_host(device_, bytes, pool_);
  }
  bool reads_any_memory() const override { return false; }

  void sort(const LineSpan& lines, uint32_t* order) override {
    if (lines.count == 0) return;
    if (!fits(lines)) {
      cpu_->sort(lines, order);
      return;
    }
    GSORT_CUDA_CHECK(cudaSetDevice(device_));
    try {
      arrays_.reserve(lines.bytes(), lines.count);
    } catch (const DeviceOutOfMemory&) {
      arrays_ = DeviceArrays();
      if (log_) log_->info("lines: no room on the GPU for a chunk of " + std::to_string(lines.count) + " lines; sorted on the CPU");
      cpu_->sort(lines, order);
      return;
    }
    const uint64_t depth = sort_on_device(lines, order);
    settle_ties(lines, order, depth);
  }

 private:
  // The device made current, before the stream is made on it.
  static int selected(int device) {
    GSORT_CUDA_CHECK(cudaSetDevice(device));
    return device;
  }

  // -g, -R and -V first keys have no device image (line_key.h): the CPU sorts them.
  bool fits(const LineSpan& lines) const {
    if (host_only_order(spec_.image().key)) return false;
    const uint64_t need = lines.bytes() + lines.count * (kernels::kLineSortBytesPerLine + 16);
    return memory_cap_ == 0 || need <= memory_cap_;
  }

  // Copies the chunk in, sorts it, copies the order and the heads out;
  // returns the depth the device reached.
  uint64_t sort_on_device(const LineSpan& lines, uint32_t* order) {
    const uint64_t n = lines.count;
    GSORT_CUDA_CHECK(cudaMemcpyAsync(arrays_.text.data(), lines.text, lines.bytes(), cudaMemcpyHostToDevice, stream_.get()));
    GSORT_CUDA_CHECK(cudaMemcpyAsync(arrays_.starts.data(), lines.starts, (n + 1) * sizeof(uint64_t),
                                     cudaMemcpyHostToDevice, stream_.get()));
    const kernels::LineSortBuffers b = arrays_.buffers();
    kernels::LineChunkDevice chunk;
    chunk.text = arrays_.text.data();
    chunk.starts = reinterpret_cast<const uint64_t*>(arrays_.starts.data());
    chunk.count = static_cast<uint32_t>(n);
    const uint64_t depth = kernels::sort_line_chunk(spec_.image(), chunk, b, kGpuRefineRounds, stream_.get());
    if (heads_.size() < n * sizeof(uint32_t)) heads_ = allocate_host(n * sizeof(uint32_t));
    GSORT_CUDA_CHECK(cudaMemcpyAsync(order, b.order, n * sizeof(uint32_t), cudaMemcpyDeviceToHost, stream_.get()));
    GSORT_CUDA_CHECK(cudaMemcpyAsync(heads(), b.head, n * sizeof(uint32_t), cudaMemcpyDeviceToHost, stream_.get()));
    stream_.synchronize();
    return depth;
  }

  // The segments the device left tied, refined on the host.
  void settle_ties(const LineSpan& lines, uint32_t* order, uint64_t depth) {
    const uint64_t n = lines.count;
    std::vector<TieSegment> segments;
    for (uint64_t i = 0; i < n;) {
      uint64_t j = i + 1;
      while (j < n && heads()[j] == 0) ++j;
      if (j - i > 1) segments.push_back({i, j - i, depth});
      i = j;
    }
    if (segments.empty()) return;
    if (entries_.size() < n * sizeof(KeyEntry)) {
      entries_ = HostBuffer();
      scratch_ = HostBuffer();
      places_ = HostBuffer();
      entries_ = HostBuffer::allocate_pageable(n * sizeof(KeyEntry));
      scratch_ = HostBuffer::allocate_pageable(n * sizeof(KeyEntry));
      places_ = HostBuffer::allocate_pageable(n * sizeof(LineCache));
    }
    KeyEntry* e = reinterpret_cast<KeyEntry*>(entries_.data());
    for (const TieSegment& s : segments) {
      for (uint64_t i = s.begin; i < s.begin + s.size; ++i) e[i].index = order[i];
    }
    TieRefiner(spec_, lines, pool_, reinterpret_cast<LineCache*>(places_.data()), false)
        .refine(e, reinterpret_cast<KeyEntry*>(scratch_.data()), segments);
    for (const TieSegment& s : segments) {
      for (uint64_t i = s.begin; i < s.begin + s.size; ++i) order[i] = e[i].index;
    }
  }

  LineSpec spec_;
  ThreadPool& pool_;
  int device_;
  uint64_t memory_cap_;
  const Log* log_;
  std::unique_ptr<LineSorter> cpu_;
  cuda::Stream stream_;
  DeviceArrays arrays_;
  HostBuffer heads_;  // pinned: where each tied segment begins
  uint32_t* heads() const { return reinterpret_cast<uint32_t*>(heads_.data()); }
  HostBuffer entries_, scratch_, places_;  // the tied lines' pairs, their scratch, where their keys lie
};

}  // namespace

std::unique_ptr<LineSorter> make_gpu_line_sorter(const LineSpec& spec, ThreadPool& pool, int device,
                                                 uint64_t memory_cap, const Log* log) {
  return std::make_unique<GpuLineSorter>(spec, pool, device, memory_cap, log);
}

}  // namespace gsort
