#include "core/host_buffer.h"

#include <cstdlib>
#include <new>

namespace gsort {

HostBuffer HostBuffer::allocate_pageable(size_t size) {
  constexpr size_t kAlign = 4096;
  const size_t rounded = (size + kAlign - 1) / kAlign * kAlign;
  void* p = std::aligned_alloc(kAlign, rounded == 0 ? kAlign : rounded);
  if (!p) throw std::bad_alloc();
  return HostBuffer(p, size, [](void* q) { std::free(q); });
}

}  // namespace gsort
