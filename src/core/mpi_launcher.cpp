#include "src/core/mpi_launcher.h"

#include <algorithm>
#include <cstdlib>
#include <initializer_list>

namespace gsort {
namespace {

// The first of `names` that is set, as a number; -1 where none is.
int first_number(std::initializer_list<const char*> names) {
  for (const char* name : names) {
    if (const char* value = std::getenv(name)) return std::atoi(value);
  }
  return -1;
}

}  // namespace

LaunchedRanks launched_ranks() {
  LaunchedRanks r;
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE", "PMI_RANK", "MPI_LOCALNRANKS"}) {
    if (std::getenv(name) != nullptr) r.launched = true;
  }
  r.size = std::max(0, first_number({"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "MPI_LOCALNRANKS"}));
  r.rank = std::max(0, first_number({"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"}));
  return r;
}

}  // namespace gsort
