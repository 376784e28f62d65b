#include "io/run/run_header.h"

#include <cstring>
#include <string>

#include "io/file/checksum.h"
#include "io/run/run_blocks.h"
#include "src/core/errors.h"

namespace gsort {
namespace {

[[noreturn]] void payload_mismatch(const std::string& path, const RunHeader& h) {
  throw DataError("run file " + path + " is damaged: " + std::to_string(h.payload_bytes) + " payload bytes for " +
                  std::to_string(h.record_count) + " records");
}

// Frames, or blocks and their table: what the header says of the payload
// must add up.
void check_payload(const std::string& path, const RunHeader& h, uint32_t record_size) {
  // A plain run's blocks are the size its writer always takes.
  const bool plain_block = run_is_compressed(h) || h.frame_bytes == run_block_records(record_size) * record_size;
  if (h.frame_bytes == 0 || h.frame_bytes % record_size != 0 || !plain_block) {
    throw DataError("run file " + path + " is damaged (" + (run_is_compressed(h) ? "frame" : "block") + " size " +
                    std::to_string(h.frame_bytes) + ")");
  }
  if (run_is_compressed(h)) {
    // An empty run has no frames; a non-empty one at least one.
    if ((h.record_count == 0) != (h.payload_bytes == 0) ||
        (h.record_count == 0 && h.checksum != StreamHash().digest())) {
      payload_mismatch(path, h);
    }
    return;
  }
  const uint64_t blocks = run_block_count(h.record_count, run_header_block_records(h));
  // Division first: a count whose bytes overflow cannot match.
  if (h.record_count > UINT64_MAX / record_size / 2 ||
      h.payload_bytes != h.record_count * record_size + blocks * sizeof(uint64_t)) {
    payload_mismatch(path, h);
  }
}

}  // namespace

void check_run_header(const RunHeader& h, const std::string& path, uint32_t record_size,
                      const RunIdentity& expected) {
  if (std::memcmp(h.magic, kRunMagic, sizeof kRunMagic) != 0) {
    throw DataError("run file " + path + " is not a complete gsort run (bad magic)");
  }
  if (h.version != kRunFormatVersion) {
    throw DataError("run file " + path + " has unsupported version " + std::to_string(h.version));
  }
  if (h.record_size != record_size) {
    throw DataError("run file " + path + " holds " + std::to_string(h.record_size) + "-byte records, expected " +
                    std::to_string(record_size));
  }
  if (h.job_id != expected.job_id || h.run_index != expected.run_index) {
    throw DataError("run file " + path + " belongs to another run or job (corrupted temporary directory?)");
  }
  if ((h.flags & ~kRunZstdFrames) != 0) {
    throw DataError("run file " + path + " has unknown flags " + std::to_string(h.flags));
  }
  check_payload(path, h, record_size);
}

RunHeader read_run_header(File& file, uint32_t record_size, const RunIdentity& expected) {
  const std::string& path = file.path();
  const uint64_t size = file.size();
  RunHeader h;
  if (size < sizeof(RunHeader) || file.pread_full(&h, sizeof h, 0) != sizeof h) {
    throw DataError("run file " + path + " is truncated (no header)");
  }
  check_run_header(h, path, record_size, expected);
  if (size != sizeof(RunHeader) + h.payload_bytes || h.payload_bytes > size) {
    throw DataError("run file " + path + " is truncated or damaged: " + std::to_string(size) +
                    " bytes on disk, header promises " + std::to_string(sizeof(RunHeader) + h.payload_bytes));
  }
  return h;
}

}  // namespace gsort
