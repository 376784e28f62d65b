// The hand-over from main(): MPI is started only when mpirun (or another
// PMI/PMIx launcher) started this process; with one rank, or without
// mpirun, gsort runs as one process exactly as before. main() still parses,
// checks and decides the exit code; this header keeps MPI out of it.
#pragma once

#include <functional>
#include <memory>

#include "src/config/sort_config.h"
#include "src/verify/sorted_check.h"

namespace gsort {

struct RankGroup;

// Whether the environment shows an MPI launch (OMPI_COMM_WORLD_SIZE,
// PMIX_RANK, PMI_SIZE, ...).
bool launched_by_mpirun();

class DistributedLaunch {
 public:
  // MPI_Init when launched_by_mpirun(); then the signal handlers that
  // remove temporary files are installed again (over any MPI put there).
  // Collective where there are several ranks.
  DistributedLaunch(int* argc, char*** argv);
  ~DistributedLaunch();  // MPI_Finalize
  DistributedLaunch(const DistributedLaunch&) = delete;
  DistributedLaunch& operator=(const DistributedLaunch&) = delete;

  bool several_ranks() const { return ranks_ > 1; }
  // With several ranks: this one's number, and how many share its host.
  int rank() const;
  unsigned ranks_on_host() const;

  // Collective: runs `step` on every rank, with standard output discarded
  // on all but rank 0 (--help and --version print once), and agrees on the
  // outcome: throws RanksFailed on every rank where it threw on any.
  void agree_on(const std::function<void()>& step);
  // Collective: where some ranks were given --help or --version (and have
  // printed, and have nothing to sort) and others not, throws RanksFailed
  // on every rank, so that none waits in the sort alone.
  void agree_on_printing(bool printed);
  // Collective: the distributed sort (distributed_sort.h); throws
  // RanksFailed on every rank where any rank failed.
  void sort(const SortConfig& config);
  // Collective: -c or -C (distributed_check.h): the input's first
  // disorder, the same on every rank.
  CheckResult check(const SortConfig& config);
  // Ends every rank's process with `exit_code` (MPI_Abort): after an error
  // outside a collective step, where other ranks may be waiting in one.
  [[noreturn]] void abort(int exit_code);

 private:
  bool initialised_ = false;
  int ranks_ = 1;
  std::unique_ptr<RankGroup> group_;  // with several ranks
};

}  // namespace gsort
