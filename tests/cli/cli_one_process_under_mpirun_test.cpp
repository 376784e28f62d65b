// The one-process gsort, started by mpirun as one of several ranks (the
// gsort package without gsort-mpi), refuses: every rank exits 2, the first
// says why, and nothing is written. Without mpirun's variables, or with one
// rank, it sorts as always.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gsort_test {
namespace {

ProcessResult as_rank(const TempDir& dir, int rank, int size) {
  ProcessOptions options;
  options.env = {"OMPI_COMM_WORLD_SIZE=" + std::to_string(size), "OMPI_COMM_WORLD_RANK=" + std::to_string(rank)};
  return run_gsort({"--record-size", "3", "-T", dir.path(), "-o", dir.file("out"), dir.file("in")}, options);
}

TEST(CliOneProcessUnderMpirun, SeveralRanksAreRefused) {
  if (std::string(GSORT_BINARY).find("gsort-mpi") != std::string::npos) GTEST_SKIP() << "the MPI build";
  TempDir dir;
  write_file(dir.file("in"), "cccbbbaaa");
  const ProcessResult first = as_rank(dir, 0, 2);
  EXPECT_EQ(first.status(), "exit 2");
  EXPECT_NE(first.err.find("runs as one process, and mpirun started 2 of it"), std::string::npos) << first.err;
  EXPECT_NE(first.err.find("gsort-mpi"), std::string::npos) << first.err;
  const ProcessResult second = as_rank(dir, 1, 2);
  EXPECT_EQ(second.status(), "exit 2");
  EXPECT_EQ(second.err, "") << "only the first rank says why";
  EXPECT_EQ(entry_names(dir.path()), std::vector<std::string>{"in"}) << "nothing written";
  const ProcessResult alone = as_rank(dir, 0, 1);
  ASSERT_EQ(alone.status(), "exit 0") << alone.err;
  EXPECT_EQ(read_file(dir.file("out")), "aaabbbccc");
}

}  // namespace
}  // namespace gsort_test
