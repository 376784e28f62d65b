#include "io/run/run_in_place.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "io/file/checksum.h"
#include "io/run/run_blocks.h"

namespace gsort {

uint64_t plain_run_bytes(uint64_t records, uint32_t record_size) {
  return sizeof(RunHeader) + records * record_size +
         run_block_count(records, run_block_records(record_size)) * sizeof(uint64_t);
}

void finish_plain_run(uint8_t* file, uint64_t records, uint32_t record_size, const RunIdentity& identity,
                      ThreadPool& pool) {
  const uint64_t block_bytes = run_block_records(record_size) * record_size;
  const uint64_t record_bytes = records * record_size;
  const uint64_t blocks = run_block_count(records, run_block_records(record_size));
  const uint8_t* data = file + sizeof(RunHeader);
  std::vector<uint64_t> table(blocks);
  const size_t tasks = std::max<size_t>(1, std::min<uint64_t>(blocks, pool.balanced_task_count()));
  pool.parallel_for(tasks, [&](size_t t) {
    for (uint64_t b = split_point(blocks, tasks, t), end = split_point(blocks, tasks, t + 1); b < end; ++b) {
      const uint64_t at = b * block_bytes;
      table[b] = run_block_sum(data + at, static_cast<size_t>(std::min(block_bytes, record_bytes - at)), b);
    }
  });
  const size_t table_bytes = static_cast<size_t>(blocks * sizeof(uint64_t));
  if (table_bytes > 0) std::memcpy(file + sizeof(RunHeader) + record_bytes, table.data(), table_bytes);
  RunHeader h = make_run_header(record_size, records, identity, StreamHash::of(table.data(), table_bytes),
                                static_cast<uint32_t>(block_bytes), record_bytes + table_bytes);
  std::memcpy(file, &h, sizeof h);
}

}  // namespace gsort
