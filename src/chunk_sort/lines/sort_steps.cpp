#include "src/chunk_sort/lines/sort_steps.h"

#include <cstdio>

namespace gsort {

std::string SortSteps::text() const {
  char buf[600];
  std::snprintf(buf, sizeof buf,
                "first pass %.3f s (planned in %.3f s; composite images in %llu of %llu chunks, %llu planned again, text squeezed in %llu, tie words kept in %llu), split %.3f s, sorted off the CPU %.3f s (%llu chunks), their entries filled there in %llu, buckets %.3f s; "
                "radix %.3f thread-s in tasks + %.3f s on all threads; ties %.3f thread-s in tasks + %.3f s on all threads, %llu lines in %llu segments",
                first_pass_s, composite_planned_s, static_cast<unsigned long long>(composite_chunks), static_cast<unsigned long long>(chunks),
                static_cast<unsigned long long>(composite_replans), static_cast<unsigned long long>(composite_squeezed),
                static_cast<unsigned long long>(composite_tie_words), split_s, offload_s,
                static_cast<unsigned long long>(offloaded_chunks), static_cast<unsigned long long>(composite_offloaded), buckets_s, radix_ns_[0].load() / 1e9, radix_ns_[1].load() / 1e9,
                refine_ns_[0].load() / 1e9, refine_ns_[1].load() / 1e9,
                static_cast<unsigned long long>(refined_lines_.load()),
                static_cast<unsigned long long>(refined_segments_.load()));
  return buf;
}

}  // namespace gsort
