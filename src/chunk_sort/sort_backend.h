// The interface between the external-sort pipeline and whatever sorts a
// chunk: the CPU backend, or the GPU backend. No CUDA types appear here.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "src/core/host_buffer.h"
#include "src/keys/key_layout.h"

namespace gsort {

// Per-phase timings a backend accumulates (seconds of wall time spent in
// each), reported under -v and --stats. Phases may overlap.
struct BackendTimings {
  double extract_s = 0;   // key extraction
  double sort_s = 0;      // sorting keys
  double copy_in_s = 0;   // host-to-device copies (GPU)
  double copy_out_s = 0;  // device-to-host copies (GPU)
  double merge_s = 0;     // merging sorted pieces of a chunk
  uint64_t chunks = 0;    // chunks sorted
  uint64_t pieces = 0;    // device-sized pieces sorted (GPU)
};

// Host memory pinned for a backend's device for as long as this lives
// (SortBackend::pin_host); it unpins in its destructor.
class HostPin {
 public:
  virtual ~HostPin() = default;
};

// Told how much of a sorted order is final: order[0, n) will not change
// again. Called with growing n; the last call has the whole count.
using OrderProgress = std::function<void(uint64_t n)>;

// One chunk being sorted while the reader still fills its buffer: the
// pipeline reports progress so that a backend can start on the records
// already read (overlapping reading with copies and sorting).
class ChunkSortSession {
 public:
  virtual ~ChunkSortSession() = default;
  // Records [0, available) of the buffer are read and will not change.
  // Called with growing values; the last call has the chunk's full count.
  virtual void records_ready(uint64_t available) = 0;
  // Called once after the last records_ready: writes the stable sorted order
  // of all records (order[i] = index of the record at position i).
  virtual void finish(uint32_t* order) = 0;
  // finish() that reports as it goes (see SortBackend::sort_order_in_parts);
  // `count` is the chunk's, as the last records_ready said. The default
  // reports the whole order once it is done.
  virtual void finish_in_parts(uint32_t* order, uint64_t count, const OrderProgress& ready) {
    finish(order);
    ready(count);
  }
};

// A whole input held in a backend's own memory (a GPU's), for an input
// larger than the host's budget: read once, sorted there, written once.
// The host's part is two staging slots, each of slot_records() records.
// Calls come from one thread, in this order: fill_slot/upload until every
// record is there, sort, then next_sorted until it returns 0.
class ResidentSort {
 public:
  virtual ~ResidentSort() = default;
  virtual uint64_t slot_records() const = 0;
  // A staging slot free to be filled (waits until its last upload is done).
  virtual uint8_t* fill_slot() = 0;
  // Sends the `count` records just put in fill_slot()'s slot to the device,
  // after those sent before; returns without waiting for the copy.
  virtual void upload(uint64_t count) = 0;
  // Sorts every record sent (stably: equal keys keep the order sent).
  virtual void sort() = 0;
  // The next slice of the sorted records, in a staging slot valid until the
  // next call; returns its record count, 0 after the last.
  virtual uint64_t next_sorted(const uint8_t** records) = 0;
  // Seconds spent in its steps, and the device memory it held.
  virtual BackendTimings timings() const = 0;
  virtual uint64_t device_bytes() const = 0;
};

class SortBackend {
 public:
  virtual ~SortBackend() = default;

  // "cpu (16 threads)", "gpu 0: NVIDIA H100 80GB HBM3", for -v and --stats.
  virtual std::string describe() const = 0;

  // Computes the stable sorted order of one chunk of records: writes to
  // order[i] the index of the record that belongs at position i. Equal keys
  // keep ascending index order. count < 2^32.
  virtual void sort_order(const uint8_t* records, uint64_t count, uint32_t* order) = 0;

  // sort_order that reports each prefix of the order as it becomes final,
  // on the sorting thread, so that the output can be written while the rest
  // is still sorted (the in-memory sort). The default reports the whole
  // order at the end.
  virtual void sort_order_in_parts(const uint8_t* records, uint64_t count, uint32_t* order,
                                   const OrderProgress& ready) {
    sort_order(records, count, order);
    ready(count);
  }

  // The backend that sorts a whole input of `count` records fastest, asked
  // once the input turns out to fit one chunk when its size was not known
  // up front (a stream that ended early). The default is this one.
  virtual SortBackend& backend_for_whole_input(uint64_t count) {
    (void)count;
    return *this;
  }

  // The stable merged order of `runs` sorted runs laid end to end in
  // `records` (run r holds records [starts[r], starts[r+1])), written like
  // sort_order; equal keys go to the lower run. The default sorts the
  // concatenation, which gives the same order because the sort is stable.
  virtual void merge_order(const uint8_t* records, const uint64_t* starts, size_t runs, uint32_t* order) {
    sort_order(records, starts[runs], order);
  }

  // Starts sorting a chunk whose buffer `records` (capacity records) is
  // being filled. The default waits for finish() and calls sort_order().
  virtual std::unique_ptr<ChunkSortSession> begin_chunk(const uint8_t* records);

  // The same for a stream's chunk, whose records come at the stream's pace
  // into a buffer of `capacity` records: sorted while it arrives. Null where
  // the backend sorts a chunk once it is whole (the default).
  virtual std::unique_ptr<ChunkSortSession> begin_stream(const uint8_t* records, uint64_t capacity) {
    (void)records;
    (void)capacity;
    return nullptr;
  }

  // Host memory for chunk buffers. A GPU backend returns pinned memory so
  // copies run at full speed; the default is pageable memory.
  virtual HostBuffer allocate_host(size_t bytes) { return HostBuffer::allocate_pageable(bytes); }

  // Pins [p, p + bytes) of ordinary host memory (page aligned) for copies
  // at full speed while the result lives. Null where the backend has no
  // use for pinned memory, or pinning failed (the memory serves unpinned).
  virtual std::unique_ptr<HostPin> pin_host(void* p, size_t bytes) {
    (void)p;
    (void)bytes;
    return nullptr;
  }
  // Whether pin_host pins (and so is worth faulting memory in for).
  virtual bool pins_host() const { return false; }
  // Whether the backend sorts records where they lie in any host memory (a
  // mapping of the input), rather than copying them to a device, whose
  // copies want the memory of allocate_host.
  virtual bool sorts_in_place() const { return false; }

  // Host memory the backend needs per record of a chunk, beyond the chunk
  // itself and the order array, so the pipeline can size chunks to -S.
  virtual uint64_t host_bytes_per_record() const { return 0; }

  virtual BackendTimings timings() const { return {}; }

  // The most device memory the backend held at once (--stats); 0 without a device.
  virtual uint64_t peak_device_bytes() const { return 0; }

  // A ResidentSort of `count` records, with staging slots of at most
  // `slot_bytes` each; null, with the reason in `why`, where the backend
  // cannot hold them all (no device, the device's memory or --gpu-memory).
  // The most records one ResidentSort may hold now (0: none), with slots
  // of slot_bytes: the size of the runs a device can form.
  virtual uint64_t resident_capacity(uint64_t slot_bytes) {
    (void)slot_bytes;
    return 0;
  }
  virtual std::unique_ptr<ResidentSort> hold_records(uint64_t count, uint64_t slot_bytes, std::string* why) {
    (void)count;
    (void)slot_bytes;
    *why = "this backend sorts in host memory only";
    return nullptr;
  }
};

}  // namespace gsort
