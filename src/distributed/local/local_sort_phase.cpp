#include "src/distributed/local/local_sort_phase.h"

#include <cstring>
#include <string>

#include "io/file/file.h"
#include "io/output/mapped_output_range.h"
#include "io/output/mapped_window.h"
#include "src/core/stopwatch.h"
#include "src/distributed/local/local_sort.h"
#include "src/core/test_hooks.h"

namespace gsort {
namespace {

// The received files' external sort merged straight into the one output
// file from `offset` on (through a descriptor standing there), instead of
// into a part that is copied there after: a streamed rank writes its
// records once, not twice.
SortReport sort_files_at(RankContext& rank, const ReceivedFiles& files, uint64_t count,
                         const DistributedOutput& output, uint64_t offset, PartEnds* ends) {
  File out = output.open_at(offset);
  rank.log.info("write: rank 0 merges into its range of the output");
  // Messages name the destination the user gave, not the descriptor.
  SortReport report = sort_received(rank.config, rank.layout, files.paths(), "/dev/fd/" + std::to_string(out.fd()),
                                    rank.pool, rank.config.output);
  if (report.output_records != count) {
    throw Error("internal error: the sorted part does not fill its range of the output");
  }
  *ends = read_part_ends(output.shared_path(), report.output_records, rank.layout, offset);
  if (rank.config.fsync) out.flush_data_to_disk();
  out.close();
  return report;
}

// The received records sorted in memory and written straight into the one
// output file at `offset`, by all threads through a mapping of the range
// (the writer every sort uses, io/output/mapped_window.h), or with pwrite
// where the file system cannot reserve it; the part's ends taken from the
// buffer.
SortReport sort_memory_at(RankContext& rank, ReceivedInMemory& memory, uint64_t count, const std::string& output,
                          uint64_t offset, PartEnds* ends) {
  const uint64_t part_bytes = count * rank.config.record_size;
  std::unique_ptr<MappedOutputRange> mapped;
  if (!test_output_by_pwrite()) mapped = MappedOutputRange::map(output, offset, part_bytes, rank.pool);
  rank.log.info(std::string("write: rank 0 fills its range of the output ") +
                (mapped ? "through a mapping (page faults, not the inode's lock)" : "with pwrite"));
  File out;  // where it is not mapped
  if (!mapped) out = File::open_update(output);
  uint64_t at = 0;  // bytes of the range written with pwrite
  SortedBufferOutput to_range;
  if (mapped) {
    to_range.map = [&mapped](uint64_t bytes, uint64_t block) -> std::unique_ptr<BlockTarget> {
      if (bytes > mapped->size()) throw Error("internal error: the sorted part outgrew its range of the output");
      return std::make_unique<MappedWindow>(mapped->data(), bytes, block);
    };
  }
  to_range.sink = [&](const uint8_t* data, size_t bytes) {
    if (at + bytes > part_bytes) throw Error("internal error: the sorted part outgrew its range of the output");
    out.pwrite_all(data, bytes, offset + at);
    at += bytes;
  };
  to_range.ends = [&](const uint8_t* first, const uint8_t* last) { *ends = part_ends_of(first, last, rank.layout); };
  SortReport report = sort_received_in_memory(rank.config, rank.layout, *memory.backend, rank.pool,
                                              memory.buffer.data(), count, std::string(), to_range);
  if (report.output_records != count) {
    throw Error("internal error: the sorted part is shorter than its range of the output");
  }
  if (mapped) {
    mapped->finish(rank.config.fsync, &rank.pool);
    return report;
  }
  if (rank.config.fsync) out.flush_data_to_disk();
  out.close();
  return report;
}

// Sorts into the one output file at `offset` (at_offset) or into a new part.
SortReport sort_into(RankContext& rank, ReceivedRecords& received, const DistributedOutput& output, bool at_offset,
                     uint64_t offset, SortedPart* sorted) {
  if (auto* in_files = std::get_if<ReceivedInFiles>(&received.where)) {
    SortReport report;
    if (at_offset) {
      report = sort_files_at(rank, *in_files->files, received.count, output, offset, &sorted->ends);
    } else {
      sorted->part = output.make_part();
      report = sort_received(rank.config, rank.layout, in_files->files->paths(), sorted->part->path(), rank.pool);
    }
    in_files->files->remove();
    return report;
  }
  auto& in_memory = std::get<ReceivedInMemory>(received.where);
  if (at_offset) return sort_memory_at(rank, in_memory, received.count, output.shared_path(), offset, &sorted->ends);
  sorted->part = output.make_part();
  return sort_received_in_memory(rank.config, rank.layout, *in_memory.backend, rank.pool, in_memory.buffer.data(),
                                 received.count, sorted->part->path());
}

}  // namespace

SortedPart sort_received_records(RankContext& rank, ReceivedRecords received, const DistributedOutput& output,
                                 RankStats& stats) {
  const Stopwatch t;
  const uint32_t rs = rank.config.record_size;
  const bool at_offset = !rank.config.unique && output.takes_parts_at_offsets();
  const uint64_t offset = at_offset ? output.offset_of(received.count * rs) : 0;
  SortedPart sorted;
  rank.fence.attempt([&] {
    const SortReport report = sort_into(rank, received, output, at_offset, offset, &sorted);
    if (auto* in_memory = std::get_if<ReceivedInMemory>(&received.where)) {
      const Stopwatch releasing;
      in_memory->buffer = HostBuffer();
      in_memory->backend.reset();
      stats.release_s = releasing.seconds();
    }
    // After the sort: a failure here leaves a finished part to clean up.
    test_fault_point("sort", rank.group.rank);
    stats.runs = report.runs;
    for (const auto& [name, seconds] : report.phases) {
      if (name == "sort" || name == "sort runs") stats.order_s += seconds;
      if (name == "gather+write") stats.part_write_s += seconds;
    }
    sorted.records = report.output_records;
    if (sorted.part) sorted.ends = read_part_ends(sorted.part->path(), sorted.records, rank.layout);
  });
  rank.fence.agree();
  stats.sort_s = t.seconds();
  return sorted;
}

}  // namespace gsort
