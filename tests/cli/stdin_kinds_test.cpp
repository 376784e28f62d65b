// Standard input of every kind: a regular file (`gsort < file`) is read as
// the named file would be (size known, so the same plan and backend), from
// wherever its offset stands; a pipe larger than the pipe buffer arrives
// whole.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "tests/support/process.h"
#include "tests/support/record_gen.h"
#include "tests/support/reference_sort.h"
#include "tests/support/temp_dir.h"

namespace gsort_test {
namespace {

const RefSpec kSpec = {16, {RefKey{0, 8, RefKind::kUnsigned, false, false}}, false, false};

std::vector<std::string> with_spec(std::vector<std::string> args) {
  std::vector<std::string> all = kSpec.args();
  all.insert(all.end(), args.begin(), args.end());
  return all;
}

TEST(StdinKinds, RegularFileOnStandardInputIsReadAsTheFile) {
  TempDir dir;
  const std::string data = Rng(11).bytes(16 * 50000);
  write_file(dir.file("in"), data);
  ProcessOptions from_file;
  from_file.stdin_kind = StdinKind::kFile;
  from_file.stdin_path = dir.file("in");
  const ProcessResult piped = run_gsort(with_spec({"-v", "-", "-o", dir.file("a")}), from_file);
  ASSERT_EQ(piped.exit_code, 0) << piped.err;
  const ProcessResult named = run_gsort(with_spec({"-v", dir.file("in"), "-o", dir.file("b")}));
  ASSERT_EQ(named.exit_code, 0) << named.err;
  EXPECT_EQ(read_file(dir.file("a")), reference_sort(data, kSpec));
  EXPECT_EQ(read_file(dir.file("a")), read_file(dir.file("b")));
  // The size is known up front: -v says so, as for the named file.
  const std::string size_line = "input: " + std::to_string(data.size()) + " bytes";
  EXPECT_NE(named.err.find(size_line), std::string::npos) << named.err;
  EXPECT_NE(piped.err.find(size_line), std::string::npos) << piped.err;
}

// `(head -c N; gsort) < file`: gsort must sort what is left, not the whole
// file from its start.
TEST(StdinKinds, RegularStandardInputStartsAtItsOffset) {
  TempDir dir;
  const std::string data = Rng(12).bytes(16 * 40000);
  write_file(dir.file("in"), data);
  const size_t skip = 16 * 1234;
  const std::string script = "head -c " + std::to_string(skip) + " >/dev/null; exec \"$0\" \"$@\"";
  std::vector<std::string> argv = {"/bin/sh", "-c", script, gsort_argv({})[0]};
  for (const std::string& a : with_spec({"-", "-o", dir.file("out")})) argv.push_back(a);
  ProcessOptions from_file;
  from_file.stdin_kind = StdinKind::kFile;
  from_file.stdin_path = dir.file("in");
  const ProcessResult r = run_process(argv, from_file);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_file(dir.file("out")), reference_sort(data.substr(skip), kSpec));
}

TEST(StdinKinds, PipeLargerThanThePipeBufferArrivesWhole) {
  TempDir dir;
  const std::string data = Rng(13).bytes(16 * 1000000);  // 16 MB: far more than any pipe buffer
  ProcessOptions piped;
  piped.stdin_kind = StdinKind::kPipe;
  piped.stdin_data = data;
  const ProcessResult r = run_gsort(with_spec({"-", "-o", dir.file("out"), "-T", dir.path()}), piped);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_file(dir.file("out")), reference_sort(data, kSpec));
}

}  // namespace
}  // namespace gsort_test
