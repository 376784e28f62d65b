// Ties refined on the device: where a chunk's entries, filled and sorted
// there (composite_fill.h, entry_sort.h), leave many lines tied at a
// level whose image the device makes (a key's text, number or month, or
// the whole line: src/keys/line_image.h's image_made_from_bytes), the
// device refines them as the host's refiner would (src/chunk_sort/lines/
// tie_refine.h), two image words a round: each run of equal bits is
// sorted, stably, by the next 16 bytes of its lines' images at that
// level, and every entry's bits become the place of the first entry of
// its new group. The text is on the device already; the host would find
// each tied line's key again, anywhere in the chunk. What the rounds
// leave tied (images spent, keys equal: the next level decides) the host
// refines from where they stopped.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "kernels/entry_sort.h"
#include "src/keys/line_key.h"

namespace gsort::kernels {

// A tied line's place in a refinement round: its run, its next two image
// words, and its line.
struct TieKey {
  uint64_t w0;
  uint64_t w1;
  uint32_t run;
  uint32_t index;
};
static_assert(sizeof(TieKey) == 24, "a tie key is 24 bytes");

// Device bytes refine_line_ties needs for `count` entries (its keys, runs
// and scratch).
size_t line_ties_bytes(uint64_t count);

// The outcome of refine_line_ties.
struct LineTies {
  uint64_t words = 0;   // image words refined past the depth the host was given
  uint64_t tied = 0;    // entries that still tie with the one before them
};

// entries[0, count), sorted by their bits (stably: tied entries in line
// order), refined at `spec` (an image made from bytes) from image word
// `depth` on, in rounds of two words, while at least `least` entries tie
// with the one before them, at most `rounds` rounds. The entries come back
// in the refined order, each with bits (hi; lo zero) equal to the place of
// the first entry of its group: equal bits still tie, at word depth +
// words. Nothing is changed where fewer than `least` tie to begin with
// (then words is 0 and tied their count). `scratch`: line_ties_bytes(count)
// bytes of device memory. Line i is text[starts[i] - starts[0], starts[i +
// 1] - starts[0] - 1). Synchronizes `stream`; throws CudaError on failure.
LineTies refine_line_ties(const LineImageSpec& spec, uint64_t depth, const uint8_t* text, const uint64_t* starts,
                          LineEntry* entries, uint64_t count, uint64_t least, int rounds, void* scratch,
                          cudaStream_t stream);

}  // namespace gsort::kernels
