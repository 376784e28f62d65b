#include "src/distributed/distributed_launch.h"

#include "src/core/mpi_launcher.h"

#include <fcntl.h>
#include <mpi.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "io/codec/input_format.h"
#include "io/temp/temp_registry.h"
#include "src/distributed/distributed_check.h"
#include "src/distributed/distributed_sort.h"
#include "src/distributed/ranks/rank_agreement.h"
#include "src/distributed/ranks/rank_fence.h"

namespace gsort {
namespace {

// Runs `step` with standard output sent to /dev/null: ranks other than 0
// must not print --help or --version again.
void run_silently(const std::function<void()>& step) {
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
  step();
}

// Where mpirun put every rank on this host and the user chose no
// point-to-point layer, Open MPI is asked for ob1 (its shared-memory
// transport between the ranks here) instead of probing UCX's network
// transports, which no rank here uses: that probe took 0.2 s of every
// MPI_Init on dev (docs/benchmarks.md, "dist of lines"). Every rank sees
// the same environment, so all choose alike.
void prefer_one_host_transport() {
  const char* size = std::getenv("OMPI_COMM_WORLD_SIZE");
  const char* local = std::getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
  if (size == nullptr || local == nullptr || std::strcmp(size, local) != 0) return;
  ::setenv("OMPI_MCA_pml", "ob1", 0);
}

}  // namespace

bool launched_by_mpirun() { return launched_ranks().launched; }

DistributedLaunch::DistributedLaunch(int* argc, char*** argv) {
  if (!launched_by_mpirun()) return;
  prefer_one_host_transport();
  MPI_Init(argc, argv);
  initialised_ = true;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks_);
  install_cleanup_signal_handlers();
  if (ranks_ > 1) group_ = std::make_unique<RankGroup>(describe_world());
}

DistributedLaunch::~DistributedLaunch() {
  if (initialised_) MPI_Finalize();
}

int DistributedLaunch::rank() const { return group_ ? group_->rank : 0; }

unsigned DistributedLaunch::ranks_on_host() const { return group_ ? static_cast<unsigned>(group_->local_size) : 1; }

void DistributedLaunch::agree_on(const std::function<void()>& step) {
  RankFence fence(*group_);
  fence.attempt([&] { group_->rank == 0 ? step() : run_silently(step); });
  fence.agree();
}

void DistributedLaunch::agree_on_printing(bool printed) {
  RankFence fence(*group_);
  compare_with_rank0(fence, *group_, {{"option --help or --version", "", printed ? "given" : "not given", ""}});
  fence.agree();
}

void DistributedLaunch::sort(const SortConfig& config) {
  set_input_decoding(config.decompress);  // as run_config does for one process
  distributed_sort(*group_, config);
}

CheckResult DistributedLaunch::check(const SortConfig& config) {
  set_input_decoding(config.decompress);
  return distributed_check(*group_, config);
}

void DistributedLaunch::abort(int exit_code) {
  MPI_Abort(group_ ? group_->comm : MPI_COMM_WORLD, exit_code);
  std::_Exit(exit_code);  // MPI_Abort does not return; this says so to the compiler
}

}  // namespace gsort
