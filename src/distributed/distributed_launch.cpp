#include "src/distributed/distributed_launch.h"

#include <fcntl.h>
#include <mpi.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <new>

#include "io/temp/temp_registry.h"
#include "src/core/exit_codes.h"
#include "src/distributed/distributed_sort.h"
#include "src/distributed/ranks/rank_fence.h"

namespace gsort {
namespace {

// Runs `parse` with standard output sent to /dev/null: ranks other than 0
// must not print --help or --version again.
std::optional<SortConfig> parse_silently(const std::function<std::optional<SortConfig>()>& parse) {
  std::fflush(stdout);
  const int saved = ::dup(1);
  const int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (saved >= 0 && null >= 0) ::dup2(null, 1);
  if (null >= 0) ::close(null);
  struct Restore {
    int fd;
    ~Restore() {
      std::fflush(stdout);
      if (fd >= 0) ::dup2(fd, 1), ::close(fd);
    }
  } restore{saved};
  return parse();
}

}  // namespace

bool launched_by_mpirun() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE", "PMI_RANK", "MPI_LOCALNRANKS"}) {
    if (std::getenv(name) != nullptr) return true;
  }
  return false;
}

DistributedLaunch::DistributedLaunch(int* argc, char*** argv) {
  if (!launched_by_mpirun()) return;
  MPI_Init(argc, argv);
  initialised_ = true;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks_);
  install_cleanup_signal_handlers();
}

DistributedLaunch::~DistributedLaunch() {
  if (initialised_) MPI_Finalize();
}

int DistributedLaunch::run(const std::function<std::optional<SortConfig>()>& parse) {
  const RankGroup group = describe_world();
  RankFence fence(group);
  try {
    std::optional<SortConfig> config;
    fence.attempt([&] { config = group.rank == 0 ? parse() : parse_silently(parse); });
    fence.agree();
    if (config) distributed_sort(group, *config);
    return kExitOk;
  } catch (const RanksFailed& e) {
    if (e.should_print()) std::fprintf(stderr, "gsort: %s\n", e.what());
    return kExitError;
  } catch (const std::exception& e) {
    // Outside a fence (a bug, or rank 0's --stats file after the output is
    // in place): the other ranks may be waiting in a collective, so the
    // job is ended. Temporary files are gone: the stack has unwound.
    std::fprintf(stderr, "gsort: rank %d: %s\n", group.rank, e.what());
    MPI_Abort(group.comm, kExitError);
  }
  return kExitError;
}

}  // namespace gsort
