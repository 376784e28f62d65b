// What identifies an input among the ranks: every rank opens every input by
// its name, and where the ranks run on several hosts the name may stand for
// a different file on each (a node-local /scratch/in.dat made per node). The
// ranks compare these before any record moves (shared_fields.h).
#pragma once

#include <cstdint>
#include <string>

#include "io/file/file.h"

namespace gsort {

// The content is sampled, not read whole, so that checking costs little on
// huge inputs: a file of at most kInputSamples blocks of kInputSampleBytes
// is hashed whole; a larger one in kInputSamples blocks, the first at 0,
// the last ending at the end and the others evenly spread between. Bytes
// between the samples are not seen here: two files of the same name, size
// and modification time that differ only there pass, to be told apart when
// the ranks compare the whole content before the commit
// (partition/content_check.h).
inline constexpr uint64_t kInputSampleBytes = 64 * 1024;
inline constexpr uint64_t kInputSamples = 16;

struct InputIdentity {
  std::string name;             // as given on the command line
  uint64_t size = 0;            // bytes
  int64_t modified_s = 0;       // st_mtime, whole seconds (copies keep no more on some file systems)
  uint64_t sampled_hash = 0;    // XXH3 of the sampled blocks, in file order
  // Which file of this rank's kernel it is: not compared (each rank's own),
  // but it tells which ranks read the same bytes (input_views.h).
  uint64_t device = 0;          // st_dev
  uint64_t inode = 0;           // st_ino
};

// The identity of the open regular file `file`, named `name`. Throws
// IoError where it cannot be read, DataError where it shrinks meanwhile.
InputIdentity identify_input(const std::string& name, File& file);

}  // namespace gsort
