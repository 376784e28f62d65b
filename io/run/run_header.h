// A run file's header read back and checked (run_file.h): by the reader of
// a whole run and by the parallel merge's view of one (run_view.h), alike.
#pragma once

#include <cstdint>

#include "io/file/file.h"
#include "io/run/run_file.h"

namespace gsort {

// The header of the run in `file`, checked against the file's size, the
// record size and the identity the reader expects. Throws DataError naming
// the file when the run is truncated, foreign or damaged.
RunHeader read_run_header(File& file, uint32_t record_size, const RunIdentity& expected);
// What read_run_header checks of a header read otherwise (from a pipe):
// its magic, version, record size, identity, flags and payload; throws
// DataError naming `path`.
void check_run_header(const RunHeader& header, const std::string& path, uint32_t record_size,
                      const RunIdentity& expected);

inline bool run_is_compressed(const RunHeader& header) { return (header.flags & kRunZstdFrames) != 0; }
// A plain run's records per block.
inline uint64_t run_header_block_records(const RunHeader& header) { return header.frame_bytes / header.record_size; }

}  // namespace gsort
