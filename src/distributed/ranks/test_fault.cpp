#include "src/distributed/ranks/test_fault.h"

#include <signal.h>

#include <cstdlib>
#include <string>

#include "src/core/errors.h"

namespace gsort {

void test_fault_point(const char* phase, int rank) {
  const char* at = std::getenv("GSORT_TEST_FAIL_AT");
  const char* who = std::getenv("GSORT_TEST_FAIL_RANK");
  if (!at || !who || std::atoi(who) != rank) return;
  const std::string wanted = at;
  if (wanted == std::string(phase) + "-signal") ::raise(SIGTERM);
  if (wanted == phase) throw Error("test hook: rank " + std::to_string(rank) + " fails in the " + phase + " phase");
}

bool test_receive_in_files() { return std::getenv("GSORT_TEST_RECEIVE_IN_FILES") != nullptr; }

bool test_output_by_pwrite() { return std::getenv("GSORT_TEST_OUTPUT_PWRITE") != nullptr; }

bool test_partition_on_cpu() { return std::getenv("GSORT_TEST_PARTITION_ON_CPU") != nullptr; }

uint64_t test_shared_slot_records() {
  const char* n = std::getenv("GSORT_TEST_SHM_SLOT_RECORDS");
  return n ? std::strtoull(n, nullptr, 10) : 0;
}

}  // namespace gsort
