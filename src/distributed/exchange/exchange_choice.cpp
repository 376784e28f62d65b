#include "src/distributed/exchange/exchange_choice.h"

#include "src/core/errors.h"
#include "src/distributed/exchange/mpi_exchange.h"
#include "src/distributed/exchange/shared_memory_exchange.h"
#ifdef GSORT_HAVE_NCCL
#include "src/distributed/exchange/nccl/nccl_exchange.h"
#endif

namespace gsort {

bool nccl_exchange_built() {
#ifdef GSORT_HAVE_NCCL
  return true;
#else
  return false;
#endif
}

namespace {

// Collective: whether every rank is on one host, sharing its /dev/shm, with
// room for the segments. MPI's hosts alone do not say that the ranks share
// one /dev/shm (containers on one machine need not).
bool shared_memory_suits(const RankGroup& group, uint32_t record_size, uint64_t round_records) {
  const bool one = one_shared_memory(group);
  return on_every_rank(group, one && group.size > 1 && group.local_size == group.size &&
                                  shared_slot_bytes(group.size, record_size, round_records, shared_memory_free()) > 0);
}

}  // namespace

std::unique_ptr<Exchange> make_exchange(const RankGroup& group, const SortConfig& config, uint64_t round_records,
                                        ThreadPool& pool, std::string* described) {
  const bool automatic = config.exchange == ExchangeChoice::kAuto;
  if (config.exchange == ExchangeChoice::kShm ||
      (automatic && shared_memory_suits(group, config.record_size, round_records))) {
    try {
      auto shm = std::make_unique<SharedMemoryExchange>(group, config.record_size, round_records, pool);
      *described = shm->describe();
      return shm;
    } catch (const Error&) {
      // Every rank failed alike (the constructor votes), so all fall back together.
      if (!automatic) throw;
    }
  }
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
