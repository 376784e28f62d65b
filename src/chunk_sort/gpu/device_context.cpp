#include "src/chunk_sort/gpu/device_context.h"

#include <algorithm>
#include <memory>

#include "src/core/log.h"
#include "kernels/extract_keys.h"
#include "src/cuda/host_registration.h"

namespace gsort::gpu {
namespace {

// The input an arena that grows is first sized for (device memory for
// 256 MiB of records): small next to any GPU, enough for a pipe's small input.
constexpr uint64_t kFirstArenaInputBytes = uint64_t{256} << 20;

int select_device(int device) {
  GSORT_CUDA_CHECK(cudaSetDevice(device));
  return device;
}

std::string device_name(int device) {
  cudaDeviceProp prop{};
  GSORT_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  return prop.name;
}

// Free memory left to the runtime and other users when gsort takes "most" of it.
size_t headroom_for(size_t total_bytes) { return std::max<size_t>(size_t{512} << 20, total_bytes / 32); }

// Takes the arena; fills `plan` with the plan for the size actually taken.
cuda::DeviceBuffer acquire_arena(const kernels::KeyFormat& format, uint32_t record_size, uint64_t cap, uint64_t input_hint,
                                 DevicePlan* plan) {
  size_t free_bytes = 0, total_bytes = 0;
  GSORT_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  size_t target = cap;
  if (cap == 0) {  // most of the free memory, with headroom for the runtime and other users
    const size_t headroom = headroom_for(total_bytes);
    target = free_bytes > 2 * headroom ? free_bytes - headroom : free_bytes / 2;
    // A known input needs no more than one group of all its records (keys,
    // indices, their double buffers and scratch) plus staging, and never
    // more than 4x its bytes for large records: taking (and clearing) tens
    // of GB for a small input would cost more start-up time than the sort.
    // Records of a few bytes need more than 4x (1-byte records ~10x), else
    // their chunks split into groups merged on the host (figures:
    // docs/benchmarks.md, "More than 2^32 records", 2026-11-22).
    if (input_hint > 0) {
      const size_t one_group = device_bytes_for_records(format, record_size, input_hint / record_size);
      target = std::min<size_t>(target, std::max<size_t>(4 * input_hint, one_group) + (size_t{256} << 20));
    }
  }
  for (;;) {
    *plan = plan_device_memory(format, record_size, target);
    if (plan->streaming.capacity == 0) {
      const std::string key = std::to_string(format.width) + "-byte key";
      const std::string records = std::to_string(record_size) + "-byte records";
      if (cap != 0 && target == cap) {
        throw DeviceOutOfMemory("the GPU memory cap of " + std::to_string(cap) + " bytes is too small to sort " +
                                records + " with a " + key);
      }
      throw DeviceOutOfMemory("too little GPU memory is free (" + mebibytes_text(free_bytes) + ") to sort " + records +
                              " with a " + key);
    }
    try {
      return cuda::DeviceBuffer(plan->bytes);
    } catch (const DeviceOutOfMemory&) {
      target = plan->bytes / 4 * 3;  // shrink and retry
    }
  }
}

}  // namespace

HostBuffer allocate_pinned_host(int device, size_t bytes, ThreadPool& pool) {
  // Large buffers: page-aligned memory with transparent huge pages, faulted
  // in by many threads, then registered. cudaHostAlloc zeroes and pins
  // 4 KiB pages one thread at a time, which costs more than the whole sort
  // of a chunk in the page cache (bench/host_alloc_bench).
  constexpr size_t kRegisterMin = size_t{64} << 20;
  if (bytes >= kRegisterMin) {
    struct Registered {
      HostBuffer memory;
      cuda::HostRegistration registration;  // after `memory`: goes first
    };
    auto held = std::make_shared<Registered>();
    held->memory = HostBuffer::allocate_pageable(bytes);
    uint8_t* data = held->memory.data();
    fault_in_pages(data, bytes, pool);
    held->registration = cuda::HostRegistration(device, data, bytes, cudaHostRegisterPortable);
    if (!held->registration) return std::move(held->memory);  // the pageable memory serves too
    return HostBuffer(data, bytes, [held](void*) mutable { held.reset(); });
  }
  return allocate_pinned_small(bytes);
}

HostBuffer allocate_pinned_small(size_t bytes) {
  void* p = nullptr;
  if (cudaHostAlloc(&p, bytes == 0 ? 1 : bytes, cudaHostAllocPortable) == cudaSuccess) {
    return HostBuffer(p, bytes, [](void* q) { GSORT_CUDA_REPORT(cudaFreeHost(q)); });
  }
  (void)cudaGetLastError();  // pinning failed: pageable memory serves too
  return HostBuffer::allocate_pageable(bytes);
}

DeviceContext::DeviceContext(const KeyLayout& layout, const GpuOptions& options)
    : device_(select_device(options.device)),
      name_(device_name(device_)),
      format_(make_key_format(layout, options.algorithm)),
      record_size_(layout.record_size()),
      field_count_(static_cast<int>(layout.fields().size())) {
  grows_ = options.memory_cap == 0 && options.input_bytes_hint == 0;
  cap_ = options.memory_cap;
  input_hint_ = grows_ ? kFirstArenaInputBytes : options.input_bytes_hint;
  arena_ = acquire_arena(format_, record_size_, cap_, input_hint_, &plan_);
  peak_arena_bytes_ = arena_.size();
  const size_t field_bytes = layout.fields().size() * sizeof(KeyField);
  fields_ = cuda::DeviceBuffer(field_bytes);
  GSORT_CUDA_CHECK(cudaMemcpy(fields_.data(), layout.fields().data(), field_bytes, cudaMemcpyHostToDevice));
}

void DeviceContext::make_current() const { GSORT_CUDA_CHECK(cudaSetDevice(device_)); }

void DeviceContext::ensure_room(uint64_t records) {
  if (!grows_ || at_ceiling_ || plan_.streaming.capacity >= records) return;
  synchronize();
  result_blocks_.clear();  // sized for the old groups
  arena_ = cuda::DeviceBuffer();  // freed first: the new one may need its room
  arena_ = acquire_arena(format_, record_size_, 0, records * record_size_, &plan_);
  at_ceiling_ = plan_.streaming.capacity < records;
  peak_arena_bytes_ = std::max(peak_arena_bytes_, arena_.size());
}

size_t DeviceContext::largest_arena() const {
  if (cap_ != 0) return cap_;
  size_t free_bytes = 0, total_bytes = 0;
  GSORT_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const size_t could = arena_.size() + free_bytes, headroom = headroom_for(total_bytes);
  return could > headroom ? could - headroom : 0;
}

bool DeviceContext::hold_arena(size_t bytes, std::string* why) {
  if (arena_.size() >= bytes) return true;
  if (cap_ != 0 && bytes > cap_) {
    *why = "they need " + mebibytes_text(bytes) + " of GPU memory, and --gpu-memory allows " + mebibytes_text(cap_);
    return false;
  }
  synchronize();
  result_blocks_.clear();  // sized for the old groups
  arena_ = cuda::DeviceBuffer();  // freed first: the new one needs its room
  try {
    arena_ = cuda::DeviceBuffer(bytes);
  } catch (const DeviceOutOfMemory&) {
    size_t free_bytes = 0, total_bytes = 0;
    GSORT_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    *why = "they need " + mebibytes_text(bytes) + " of GPU memory, and " + mebibytes_text(free_bytes) + " is free";
    arena_ = acquire_arena(format_, record_size_, cap_, input_hint_, &plan_);
    return false;
  }
  plan_ = plan_device_memory(format_, record_size_, arena_.size());
  peak_arena_bytes_ = std::max(peak_arena_bytes_, arena_.size());
  return true;
}

void DeviceContext::synchronize() const {
  copy_in.synchronize();
  compute.synchronize();
  copy_out.synchronize();
}

void DeviceContext::synchronize_noexcept() const noexcept {
  GSORT_CUDA_REPORT(cudaStreamSynchronize(copy_in.get()));
  GSORT_CUDA_REPORT(cudaStreamSynchronize(compute.get()));
  GSORT_CUDA_REPORT(cudaStreamSynchronize(copy_out.get()));
}

kernels::SortBuffers DeviceContext::sort_buffers(const GroupArrays& g) const {
  kernels::SortBuffers b;
  b.columns = at<uint64_t>(g.columns);
  b.column_stride = g.capacity;
  b.keys_a = at<void>(g.keys_a);
  b.keys_b = at<void>(g.keys_b);
  b.values_a = at<uint32_t>(g.values_a);
  b.values_b = at<uint32_t>(g.values_b);
  b.temp = at<void>(g.temp);
  b.temp_bytes = g.temp_bytes;
  return b;
}

void DeviceContext::extract_keys(const uint8_t* records, uint64_t count, const GroupArrays& g, uint64_t out_offset,
                                 uint32_t index_base) {
  kernels::ExtractArgs args;
  args.records = records;
  args.record_size = record_size_;
  args.count = count;
  args.out_offset = out_offset;
  args.index_base = index_base;
  args.columns = at<uint64_t>(g.columns);
  args.column_stride = g.capacity;
  args.last_keys = at<void>(g.keys_a);
  args.values = at<uint32_t>(g.values_a);
  args.fields = fields();
  args.field_count = field_count_;
  const size_t span = timer.begin(Phase::kExtract, compute);
  kernels::launch_extract_keys(format_, args, compute.get());
  timer.end(span, compute);
}

bool is_pinned(const void* p) {
  cudaPointerAttributes attributes{};
  if (cudaPointerGetAttributes(&attributes, p) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return attributes.type == cudaMemoryTypeHost;
}

uint8_t* DeviceContext::bounce_buffer(ThreadPool& pool) {
  if (!bounce_) {
    bounce_ = allocate_pinned_host(device_, 2 * kBounceBytes, pool);
    bounce_pinned_ = is_pinned(bounce_.data());
  }
  return bounce_pinned_ ? bounce_.data() : nullptr;
}

uint8_t* DeviceContext::result_block(size_t g, ThreadPool& pool) {
  const size_t bytes = result_keys_offset() + plan_.streaming.capacity * format_.sort_key_bytes();
  while (result_blocks_.size() <= g) result_blocks_.push_back(allocate_pinned_host(device_, bytes, pool));
  return result_blocks_[g].data();
}

}  // namespace gsort::gpu
