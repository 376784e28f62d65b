#include "src/pipeline/output_mapping.h"

#include <sys/stat.h>

#include "io/cache/page_cache_room.h"
#include "src/core/address_space.h"
#include "src/core/test_hooks.h"

namespace gsort {

namespace {

// Whether one of `inputs` is the file standard output writes ("-": standard
// input's): `gsort f >> f` reads f whole before it writes, which a mapping
// made before the read would change.
bool reads_standard_output(const std::vector<std::string>& inputs) {
  struct stat out {};
  if (::fstat(1, &out) != 0) return true;
  for (const std::string& name : inputs) {
    struct stat in {};
    const int rc = name == "-" ? ::fstat(0, &in) : ::stat(name.c_str(), &in);
    if (rc == 0 && in.st_dev == out.st_dev && in.st_ino == out.st_ino) return true;
  }
  return false;
}

}  // namespace

std::string mapping_refusal(const OutputTarget& target, const std::vector<std::string>& inputs, bool encoded,
                            bool writeback_paced, uint64_t input_bytes) {
  const int forced = test_hooks::output_way ? test_hooks::output_way() : 0;
  if (forced == 1) return "a test asked for the stream";
  if (target.is_direct() && !target.direct_is_mappable()) {
    if (!target.is_stdout()) return "not a regular file";
    return target.direct_appends() ? "standard output is appended to (>>), where others may append too"
                                   : "standard output";
  }
  if (forced == 2) return "";
  if (target.is_direct() && !target.is_range() && reads_standard_output(inputs)) return "standard output is also an input";
  if (encoded) return "compressed";
  if (writeback_paced) return "larger than the page cache takes: around it, or paced";
  if (input_bytes > 0) {
    const uint64_t mappable = address_space_left(0);
    if (mappable != UINT64_MAX && input_bytes > mappable / 2) {
      return "larger than half of what ulimit -v or -d leaves to map (" + std::to_string(mappable) + " bytes)";
    }
    const uint64_t room = page_cache_room().bytes;
    if (room > 0 && input_bytes > room) {
      return "larger than the page cache takes at memory speed (" + std::to_string(room) + " bytes)";
    }
  }
  return "";
}

std::string stream_reason(const std::string& refusal, const RoomCheck& room, const MappedDestination& mapped) {
  if (!refusal.empty()) return refusal;
  if (!room.may_map()) return room.why_stream();
  return mapped.no_room();
}

void report_output_way(OutputWay way, const std::string& refusal, unsigned threads, const Log& log,
                       SortReport& report) {
  report.output_way = output_way_name(way);
  if (way == OutputWay::kMapped) {
    log.info("output: filled through a mapping by " + std::to_string(threads) + " threads");
  } else if (way == OutputWay::kStream) {
    report.output_way_why = refusal.empty() ? "the file system cannot reserve or map it, or its size was unknown"
                                            : refusal;
    log.info("output: one write() stream (" + report.output_way_why + ")");
  }
}

OutputRoom destination_room(OutputTarget& target, bool encoded, uint64_t bytes, const std::string& refusal) {
  OutputRoom room;
  if (bytes == 0 || encoded) return room;
  room.bytes = bytes;
  room.fd = target.file().fd();
  room.name = target.destination();
  room.mappable = refusal.empty();
  room.copied_into = target.copied_into();
  return room;
}

void allow_mapped_blocks(OutputBlocks& blocks, MappedDestination& mapped, const RoomCheck& room) {
  blocks.allow_mapping([&mapped, &room](uint64_t bytes, uint64_t block) {
    return room.may_map() ? mapped.map(bytes, block) : nullptr;
  });
  blocks.allow_whole_mapping([&mapped, &room](uint64_t bytes) { return room.may_map() ? mapped.map_whole(bytes) : nullptr; });
}

}  // namespace gsort
