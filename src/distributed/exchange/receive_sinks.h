// The two places a rank's incoming records go:
//   FileSink    appends them to its ReceivedFiles (one file per source),
//               through a staging slot per source: the exchange lands a
//               round there, then it is written;
//   MemorySink  lands them straight in one buffer (the local sort's chunk
//               buffer, pinned when the backend is a GPU), each source's
//               records after the previous source's, so that the buffer
//               holds the rank's range in input order.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "src/core/host_buffer.h"
#include "src/distributed/exchange/exchange.h"
#include "src/distributed/local/received_files.h"

namespace gsort {

class FileSink final : public ReceiveSink {
 public:
  // Rounds bring at most `round_records` records from each source.
  FileSink(ReceivedFiles& files, int ranks, uint32_t record_size, uint64_t round_records);
  uint8_t* place(int source, uint64_t count) override;
  void landed(int source, uint64_t count) override;
  // This rank's own records, which never enter the exchange.
  void keep_own(int self, const uint8_t* records, uint64_t count) { files_.append(self, records, count); }

 private:
  ReceivedFiles& files_;
  uint32_t record_size_;
  uint64_t round_records_;
  HostBuffer staging_;
};

class MemorySink final : public ReceiveSink {
 public:
  // `from_each[r]`: the records rank r sends here in all (this rank's own
  // included); `records` has room for their sum.
  MemorySink(uint8_t* records, const std::vector<uint64_t>& from_each, uint32_t record_size);
  uint8_t* place(int source, uint64_t count) override;
  // Also for this rank's own records, which the caller puts in place.
  void landed(int source, uint64_t count) override;

 private:
  uint8_t* records_;
  uint32_t record_size_;
  std::vector<uint64_t> next_;  // per source: where its next records go (records)
};

}  // namespace gsort
