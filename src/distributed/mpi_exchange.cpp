#include "src/distributed/mpi_exchange.h"

#include <climits>
#include <string>

#include "src/core/errors.h"
#include "src/core/stopwatch.h"
#include "src/report/sort_report.h"

namespace gsort {

MpiExchange::MpiExchange(const RankGroup& group, uint32_t record_size, uint64_t chunk_records)
    : group_(group), record_size_(record_size) {
  const size_t ranks = static_cast<size_t>(group.size);
  // Displacements of the receive buffer are ints counting records.
  if (chunk_records * ranks > static_cast<uint64_t>(INT_MAX)) {
    throw Error("internal error: an exchange round of " + std::to_string(chunk_records) +
                " records per rank is too large for MPI");
  }
  MPI_Type_contiguous(static_cast<int>(record_size), MPI_BYTE, &record_type_);
  MPI_Type_commit(&record_type_);
  receive_.reset(new uint8_t[chunk_records * ranks * record_size]);
  incoming_.resize(ranks);
  send_counts_.resize(ranks);
  send_displs_.resize(ranks);
  recv_counts_.resize(ranks);
  recv_displs_.resize(ranks);
}

MpiExchange::~MpiExchange() { MPI_Type_free(&record_type_); }

void MpiExchange::round(const uint8_t* buckets, const std::vector<uint64_t>& counts, const ReceiveSink& sink) {
  const int ranks = group_.size;
  Stopwatch waiting;
  MPI_Alltoall(counts.data(), 1, MPI_UINT64_T, incoming_.data(), 1, MPI_UINT64_T, group_.comm);
  int sent = 0, received = 0;
  for (int r = 0; r < ranks; ++r) {
    const size_t i = static_cast<size_t>(r);
    send_counts_[i] = static_cast<int>(counts[i]);
    send_displs_[i] = sent;
    recv_counts_[i] = static_cast<int>(incoming_[i]);
    recv_displs_[i] = received;
    sent += send_counts_[i];
    received += recv_counts_[i];
    if (r != group_.rank) {
      tally_.bytes_sent += counts[i] * record_size_;
      tally_.bytes_received += incoming_[i] * record_size_;
    }
  }
  MPI_Alltoallv(buckets, send_counts_.data(), send_displs_.data(), record_type_, receive_.get(), recv_counts_.data(),
                recv_displs_.data(), record_type_, group_.comm);
  tally_.wait_s += waiting.seconds();
  ++tally_.rounds;
  for (int r = 0; r < ranks; ++r) {
    const size_t i = static_cast<size_t>(r);
    sink(r, receive_.get() + static_cast<uint64_t>(recv_displs_[i]) * record_size_, incoming_[i]);
  }
}

}  // namespace gsort
