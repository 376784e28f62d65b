// The device's part of the GPU sorter of lines (sort_gpu.h): a chunk's
// 16-byte entries sorted there and copied back, or its text copied in,
// every line's entry filled there by a composite plan (device_composite.h)
// and sorted. One owner of the sorter's device memory, held against the
// job's --gpu-memory.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "kernels/composite_fill.h"
#include "src/algo/line_index.h"
#include "src/chunk_sort/lines/composite_pass.h"
#include "src/core/device_budget.h"
#include "src/core/host_buffer.h"
#include "src/core/log.h"
#include "src/cuda/registered_copies.h"
#include "src/cuda/resources.h"

namespace gsort {

// Ties at a level whose image the device makes (image_made_from_bytes),
// from image word `depth` on, to refine there once a fill's entries are
// sorted.
struct DeviceTies {
  LineImageSpec spec;
  uint64_t depth = 0;
};

class DeviceEntrySort {
 public:
  // Makes `device` current; throws CudaError where it cannot.
  DeviceEntrySort(int device, std::shared_ptr<DeviceBudget> budget, const Log* log);

  // entries[0, n) sorted by their 96 bits, stably; false, leaving them as
  // they were, where the device has no room.
  bool sort(WideEntry* entries, uint64_t n);

  // Chunks whose ties a fill refined on the device (fill_and_sort's `ties`).
  uint64_t tie_chunks() const { return tie_chunks_; }

  // Whether the device holds the text of `lines` (a fill copied it in).
  bool holds(const LineSpan& lines) const { return copied(lines); }

  // Where the device holds the chunk's text (holds()), its lines in
  // `order` gathered there and handed to put(bytes, n, last) a piece at a
  // time, through `staging` (pinned host memory, two pieces' worth);
  // false, having handed nothing, where the device has no room.
  bool write_sorted(const LineSpan& lines, const uint32_t* order, const HostBuffer& staging,
                    const std::function<void(const uint8_t*, uint64_t, bool)>& put);

  // Forgets the text a fill copied in (a new chunk may lie in the same
  // memory, with as many lines).
  void forget_text() { copied_ = Copied{}; }

  // Every line's entry filled by the plan (ranked[k]: level k's slots and ranks),
  // the chunk's starts and text copied in first (unless a fill of the same
  // chunk by a plan it missed has); where every line fits the plan, the
  // entries sorted and copied back into `entries`, with `ties` refined
  // there first where many lines tie and the device has room (Misfits
  // says by how many words). Nothing where the device has no room; else
  // the lines that missed.
  std::optional<Misfits> fill_and_sort(const LineSpan& lines, kernels::DeviceComposite plan,
                                       const std::vector<const FewSlots*>& ranked, WideEntry* entries,
                                       const std::optional<DeviceTies>& ties = std::nullopt);

 private:
  struct Copied {
    const uint8_t* text = nullptr;
    const uint64_t* starts = nullptr;
    uint64_t count = 0;
    double seconds = 0;     // until the copies were queued (their pieces registered)
    double reserved_s = 0;  // of seconds, taking the device's memory
  };
  // The chunk's starts and text copied into fill_, queued on stream_ with
  // their registrations held in `pins`.
  bool copy_in(const LineSpan& lines, cuda::RegisteredCopies& pins);
  bool make_room(uint64_t n, uint64_t fill_bytes);
  // out_ grown to `bytes` and temp_ to `temp`, held against --gpu-memory with the rest.
  bool room_to_gather(uint64_t bytes, size_t temp);
  // ties_ grown to `bytes`, the same way.
  bool room_for_ties(uint64_t bytes);
  // The sorted entries' ties refined where many lines tie (fill_and_sort).
  void refine_ties(const DeviceTies& ties, kernels::LineEntry* sorted, uint64_t n, Misfits& m);
  // What the buffers hold in all.
  uint64_t buffer_bytes() const {
    return a_.size() + b_.size() + temp_.size() + fill_.size() + plan_.size() + out_.size() + ties_.size();
  }
  void reserve(uint64_t n, size_t temp, uint64_t fill_bytes);
  void release();
  void note_no_room(uint64_t n, const char* why) const;
  void note_no_gather(uint64_t bytes, const char* why) const;
  bool copied(const LineSpan& lines) const {
    return copied_.count == lines.count && copied_.text == lines.text && copied_.starts == lines.starts;
  }
  void report(uint64_t n, uint64_t bytes, double seconds, double filled_s, double registered_s) const;

  int device_;
  DeviceBudgetShare share_;  // what the buffers below hold of --gpu-memory
  const Log* log_;
  cuda::Stream stream_;
  cuda::DeviceBuffer a_, b_, temp_;  // entries, their sort's other half and scratch
  cuda::DeviceBuffer fill_;          // a fill's line starts, then its text
  cuda::DeviceBuffer plan_;          // a fill's ranked slots, then its misfits' count and list
  cuda::DeviceBuffer out_;           // the lines gathered in order (write_sorted)
  cuda::DeviceBuffer ties_;          // the ties' keys and scratch (refine_ties)
  uint64_t capacity_ = 0;            // entries a_ and b_ hold
  uint64_t tie_chunks_ = 0;
  Copied copied_;
};

}  // namespace gsort
