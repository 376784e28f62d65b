// What a rank received in the exchange, handed to its local sort: files
// (one per source rank), or one buffer that the local sort's backend sorts
// in place.
#pragma once

#include <cstdint>
#include <memory>
#include <variant>

#include "src/chunk_sort/sort_backend.h"
#include "src/core/host_buffer.h"
#include "src/distributed/local/received_files.h"

namespace gsort {

struct ReceivedInFiles {
  std::unique_ptr<ReceivedFiles> files;
};

struct ReceivedInMemory {
  std::unique_ptr<SortBackend> backend;
  HostBuffer buffer;  // after `backend`: released first (it may be the backend's)
};

struct ReceivedRecords {
  uint64_t count = 0;  // the rank's partition, its own records included
  std::variant<ReceivedInFiles, ReceivedInMemory> where;
};

}  // namespace gsort
