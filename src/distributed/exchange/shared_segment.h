// The shared-memory exchange's segments: one file in /dev/shm that gsort
// names and removes itself (where MPI's shared windows leave Open MPI's
// backing file behind when a rank is killed). The host's first rank makes
// it (gsort-shm.<host>-<pid>.XXXXXX, io/temp/stale_files.h) and reserves it
// (a /dev/shm without room fails here, not with a SIGBUS later); every
// rank maps it; it is unlinked as soon as all have, so a rank killed after
// that leaves nothing, and one killed before leaves a file the next gsort
// on the host removes. Each step of making it is voted on: a rank that
// cannot (no room, a memory limit on its mapping) fails every rank alike,
// and none is left waiting in a collective.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>

namespace gsort {

class SharedSegment {
 public:
  // Collective over `host`, whose `ranks` ranks share this host: each rank
  // gets a segment of segment_bytes. Throws Error on every rank when any
  // rank cannot make or map it.
  SharedSegment(MPI_Comm host, int rank, int ranks, uint64_t segment_bytes);
  ~SharedSegment();
  SharedSegment(const SharedSegment&) = delete;
  SharedSegment& operator=(const SharedSegment&) = delete;

  // Rank r's segment, mapped here.
  uint8_t* segment(int r) const { return base_ + static_cast<uint64_t>(r) * segment_bytes_; }

 private:
  uint8_t* base_ = nullptr;
  uint64_t segment_bytes_;
  size_t length_ = 0;
};

}  // namespace gsort
