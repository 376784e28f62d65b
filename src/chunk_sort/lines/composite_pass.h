// The CPU sorter's first pass for a sort by keys: the images of the keys
// in turn (and of the last-resort whole line) compiled into one 96-bit
// image per line, so that one radix sort orders the lines by all of them
// at once. `-t, -k2,2 -k1,1n` over a column of a few names is one sort of
// (name bits, number bits) rather than a sort by name and then, in every
// name's tied segment, a refinement by number.
//
// A level's slot is the first kSlotBytes bytes of its image, padding
// included. Over the chunk, the bits of each slot that vary are found
// (one pass); the composite image is those bits, level after level, in
// order (a second pass): a bit that is the same in every line never
// decides an order. A level whose images take few values in the chunk
// (kFewSlotsMost) gives instead, where that is fewer bits, its image's
// rank among them (few_slots.h). A level is spent whole when its images are exact
// (equal images mean equal keys: line_image.h) and fit the slot; then its
// varying bits tell every pair of lines apart as the key does, and the
// next level's bits follow. The first level that is not exact, does not
// fit, or whose varying bits do not all fit the 96 is the last: lines that
// tie go to the refiner (tie_refine.h) at that level, from the first image
// word not wholly in the 96 bits.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "src/algo/line_index.h"
#include "src/chunk_sort/cpu/pair_sort.h"
#include "src/chunk_sort/lines/few_slots.h"
#include "src/chunk_sort/lines/first_pass.h"
#include "src/chunk_sort/lines/tie_refine.h"
#include "src/core/thread_pool.h"
#include "src/keys/line_spec.h"

namespace gsort {

constexpr uint32_t kSlotLevels = 4;               // levels the composite may take in
constexpr uint32_t kFewSlotsMost = 4096;          // distinct images of a level that are ranked
// Distinct keys of a collated or text level that are ranked, at most (a
// rank of 16 bits; sorting them takes a few ms): a collated level's only
// exact image, and a text level's where its bytes leave later levels
// fewer bits (composite_plan.h's compose).
constexpr uint32_t kManySlotsMost = 1u << 16;
constexpr uint64_t kMisfitsMost = 65536;          // lines that do not fit a plan, listed (more: counted)

struct Composite;  // composite_plan.h

// The lines a fill found not to fit its plan: listed while few, else only counted.
// Where none, the image words past the plan's start by which the offload
// refined what tied (kernels/tie_words.h), and whether nothing ties now.
struct Misfits {
  std::vector<uint64_t> lines;
  bool many = false;
  uint64_t words_refined = 0;
  bool settled = false;
  bool none() const { return lines.empty() && !many; }
};

// The fill of every line's entry by plan `c` and the entries' sort, off
// the CPU (the GPU: gpu/sort_gpu.h): nothing where it declines (the CPU
// fills); else the lines that do not fit the plan, and where none, the
// entries filled and sorted by their bits, stably (their ties refined
// as Misfits says, the bits then tied lines' groups).
using CompositeOffload =
    std::function<std::optional<Misfits>(const LineSpan& lines, const std::vector<LineImageSpec>& specs,
                                         const Composite& c, const std::vector<uint64_t>& reference, WideEntry* entries)>;

// Fills entries[0, n) with each line's composite image (hi, then the top
// of lo) and index, and returns where ties are refined from. Where a
// sample says many lines will tie, every line's key at that level and its
// first two words there go into the cache tie_cache() returns (n entries),
// as *cached says; else the refiner finds the keys of the few tied lines
// itself. *replanned: whether a line
// the sample had not seen made it plan again from every line; *squeezed:
// whether a text level was squeezed to its varying bits. Returns nothing, having
// written nothing that matters, where the composite would take in no more
// than the first level: one level, a first key that is the whole line, or
// a first key whose images are not exact or longer than the slot (the
// first pass, first_pass.h, then does better). With an offload that
// takes the chunk (where no tie words are kept), *sorted: the entries
// come back sorted. *planned_s: the seconds its sample and plan took,
// before any fill, whether or not the composite is taken (-v).
std::optional<TieStart> composite_pass(ThreadPool& pool, const LineSpec& spec, const LineSpan& lines,
                                       WideEntry* entries, const std::function<LineCache*()>& tie_cache,
                                       CachedWords* cached, bool* replanned, bool* squeezed,
                                       const CompositeOffload& offload = {}, bool* sorted = nullptr,
                                       double* planned_s = nullptr);

}  // namespace gsort
