// The hand-over from main(): MPI is started only when mpirun (or another
// PMI/PMIx launcher) started this process; with one rank, or without
// mpirun, gsort runs as one process exactly as before. This header keeps
// MPI out of main().
#pragma once

#include <functional>
#include <optional>

#include "src/config/sort_config.h"

namespace gsort {

// Whether the environment shows an MPI launch (OMPI_COMM_WORLD_SIZE,
// PMIX_RANK, PMI_SIZE, ...).
bool launched_by_mpirun();

class DistributedLaunch {
 public:
  // MPI_Init when launched_by_mpirun(); then the signal handlers that
  // remove temporary files are installed again (over any MPI put there).
  DistributedLaunch(int* argc, char*** argv);
  ~DistributedLaunch();  // MPI_Finalize
  DistributedLaunch(const DistributedLaunch&) = delete;
  DistributedLaunch& operator=(const DistributedLaunch&) = delete;

  bool several_ranks() const { return ranks_ > 1; }

  // The sort as one of several ranks. `parse` reads the command line
  // (nullopt: --help or --version was printed, by rank 0 alone). Returns
  // the exit code; every rank returns the same one.
  int run(const std::function<std::optional<SortConfig>()>& parse);

 private:
  bool initialised_ = false;
  int ranks_ = 1;
};

}  // namespace gsort
