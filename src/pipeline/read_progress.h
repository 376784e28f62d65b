// The progress line while the inputs are read: the bytes read from them,
// of their size on disk.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "src/report/progress.h"

namespace gsort {

struct ReadProgress {
  ProgressMeter& meter;
  const std::atomic<uint64_t>& stored_read;  // InputTally::stored_bytes
  uint64_t stored_total = 0;                 // InputSet::stored_bytes, 0 if unknown

  void phase(const std::string& name) const { meter.phase(name, stored_total, &stored_read); }
};

}  // namespace gsort
