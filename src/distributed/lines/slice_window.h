// The next window of a rank's lines: whole lines within one input, read
// from a mapping of the input (the page cache's own pages, nothing copied)
// or, where it cannot be mapped or its input's last line lacks a
// terminator, from a copy read on the pool's threads with the terminator
// added, as one process reads it.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "io/input/mapped_input.h"
#include "src/core/thread_pool.h"
#include "src/distributed/partition/input_slice.h"

namespace gsort {

// A window's bytes, each line ended by its terminator.
struct WindowText {
  std::unique_ptr<MappedInput> mapped;
  std::vector<uint8_t> copy;
  const uint8_t* data = nullptr;
  uint64_t size = 0;
};

// The window from byte `at` of `inputs` (one-byte records, taken end to
// end): about `bytes`, ending at a line's end, before `end` and within the
// input `at` is in (a line longer than `bytes` is taken whole). Returns
// where the next window starts.
uint64_t read_window(const ConcatenatedInputs& inputs, uint8_t eol, uint64_t at, uint64_t end, uint64_t bytes,
                     ThreadPool& pool, WindowText& w);

}  // namespace gsort
