#include "src/distributed/exchange_choice.h"

#include "src/core/errors.h"
#include "src/distributed/mpi_exchange.h"
#ifdef GSORT_HAVE_NCCL
#include "src/distributed/nccl/nccl_exchange.h"
#endif

namespace gsort {

bool nccl_exchange_built() {
#ifdef GSORT_HAVE_NCCL
  return true;
#else
  return false;
#endif
}

std::unique_ptr<Exchange> make_exchange(const RankGroup& group, const SortConfig& config, uint64_t round_records,
                                        std::string* described) {
  if (config.exchange == ExchangeChoice::kNccl) {
#ifdef GSORT_HAVE_NCCL
    auto nccl = std::make_unique<NcclExchange>(group, config.record_size, round_records, config.device);
    *described = nccl->describe();
    return nccl;
#else
    throw UsageError("--exchange nccl: this gsort was built without NCCL (it needs CUDA, MPI and nccl.h)");
#endif
  }
  *described = "MPI";
  return std::make_unique<MpiExchange>(group, config.record_size);
}

}  // namespace gsort
