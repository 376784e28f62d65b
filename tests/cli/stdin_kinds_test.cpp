// Standard input of every kind: a regular file (`gsort < file`) is read as
// the named file would be (size known, so the same plan and backend), from
// wherever its offset stands; a pipe larger than the pipe buffer arrives
// whole, and so does one written a few bytes at a time (records and lines,
// in memory and spilled); an empty pipe gives an empty output, and one that
// ends inside a record is a one-line error that writes nothing.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "tests/support/process.h"
#include "tests/support/record_gen.h"
#include "tests/support/reference_sort.h"
#include "tests/support/rng.h"
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

// gsort on a pipe written in pieces of 1 to `most` bytes (each its own
// write(), so the reader sees them arrive a few at a time).
ProcessResult sort_trickled(const std::vector<std::string>& args, const std::string& data, size_t most) {
  ProcessOptions piped;
  piped.stdin_kind = StdinKind::kPipe;
  Process p(gsort_argv(args), piped);
  const int fd = p.take_stdin();
  Rng rng(most);
  for (size_t at = 0; at < data.size();) {
    const size_t n = std::min<size_t>(data.size() - at, rng.range(1, most));
    if (::write(fd, data.data() + at, n) != static_cast<ssize_t>(n)) break;  // gsort failed: its status says why
    at += n;
  }
  ::close(fd);
  return p.wait(120);
}

// With 4 threads or more the CPU sorts a pipe's chunk in pieces as it
// arrives (src/chunk_sort/cpu/stream_piece_sort.h); a pipe that outgrows
// its chunk (-S 1M) drops those pieces and spills. The case that looks for
// the pieces names the CPU: on a GPU host, auto gives a chunk of gigabytes
// to the GPU.
TEST(StdinKinds, RecordsArrivingInOddPiecesSortWhole) {
  TempDir dir;
  const std::string data = Rng(14).bytes(16 * 150000);
  const std::vector<std::vector<std::string>> extras = {
      {}, {"-S", "1M", "-T", dir.path()}, {"--parallel", "4", "-v", "--backend", "cpu"}, {"--parallel", "4", "-S", "1M", "-T", dir.path()}};
  for (const std::vector<std::string>& extra : extras) {
    std::vector<std::string> args = with_spec({"-o", dir.file("out")});
    args.insert(args.end(), extra.begin(), extra.end());
    const ProcessResult r = sort_trickled(args, data, 13);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(read_file(dir.file("out")) == reference_sort(data, kSpec)) << testing::PrintToString(extra);
    if (extra.size() == 5) EXPECT_NE(r.err.find("sorted in pieces as it arrives"), std::string::npos) << r.err;
  }
}

TEST(StdinKinds, LinesArrivingInOddPiecesSortAsSortDoes) {
  TempDir dir;
  Rng rng(15);
  std::string lines;
  for (int i = 0; i < 60000; ++i) lines += std::to_string(rng.below(100000)) + (rng.chance(3) ? " x\n" : "\n");
  write_file(dir.file("in"), lines);
  const ProcessResult gnu = run_process({"/usr/bin/sort", "-n", dir.file("in")}, c_locale());
  for (const std::vector<std::string>& extra : {std::vector<std::string>{}, {"-S", "1M", "-T", dir.path()}}) {
    std::vector<std::string> args = {"-n", "-o", dir.file("out")};
    args.insert(args.end(), extra.begin(), extra.end());
    const ProcessResult r = sort_trickled(args, lines, 7);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(read_file(dir.file("out")) == gnu.out) << (extra.empty() ? "in memory" : "spilled");
  }
}

TEST(StdinKinds, AnEmptyPipeGivesAnEmptyOutput) {
  TempDir dir;
  for (const std::vector<std::string>& args : {with_spec({"-o", dir.file("records")}), {"-o", dir.file("lines")}}) {
    const ProcessResult r = sort_trickled(args, "", 1);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(r.err.empty()) << r.err;
  }
  EXPECT_EQ(read_file(dir.file("records")), "");
  EXPECT_EQ(read_file(dir.file("lines")), "");
}

// A named FIFO given as an input is opened once: a look before the run
// that opened and closed it would let its writer finish into nobody (or die
// of SIGPIPE), and the run's own open would wait forever for a writer.
// The writer here has written everything and closed before gsort reads.
TEST(StdinKinds, ANamedFifoIsOpenedOnceAndReadWhole) {
  TempDir dir;
  const std::string fifo = dir.file("p");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string records("\x02\0\0\0\0\0\0\0bbbbbbbb\x01\0\0\0\0\0\0\0aaaaaaaa", 32);
  for (const bool lines : {true, false}) {
    const std::string data = lines ? std::string("b\na\n") : records;
    const std::string expected = lines ? std::string("a\nb\n") : records.substr(16) + records.substr(0, 16);
    write_file(dir.file("data"), data);
    // sh -c SCRIPT sh DATA FIFO GSORT ARGS...: the writer in the background, gsort ARGS.
    const std::string script = "d=$1 p=$2 g=$3; shift 3; cat \"$d\" > \"$p\" & \"$g\" \"$@\"; s=$?; wait; exit $s";
    std::vector<std::string> args = {"/bin/sh", "-c", script, "sh", dir.file("data"), fifo, gsort_argv({}).front()};
    if (!lines) {
      const std::vector<std::string> spec = kSpec.args();
      args.insert(args.end(), spec.begin(), spec.end());
    }
    args.push_back(fifo);
    ProcessOptions o;
    o.timeout_s = 20;
    const ProcessResult r = run_process(args, o);
    ASSERT_EQ(r.status(), "exit 0") << (lines ? "lines: " : "records: ") << r.err;
    EXPECT_TRUE(r.out == expected) << (lines ? "lines" : "records");
  }
}

TEST(StdinKinds, APipeEndingInsideARecordIsAClearErrorAndWritesNothing) {
  TempDir dir;
  const std::string data = Rng(16).bytes(16 * 1000 + 5);
  const ProcessResult r = sort_trickled(with_spec({"-o", dir.file("out")}), data, 11);
  EXPECT_EQ(r.status(), "exit 2");
  EXPECT_EQ(r.err, "gsort: standard input: size 16005 bytes is not a multiple of the record size 16 (5 bytes left over)\n");
  EXPECT_NE(::access(dir.file("out").c_str(), F_OK), 0) << "an output after the error";
  EXPECT_EQ(count_files(dir.path()), 0u) << "files left behind";
}

}  // namespace
}  // namespace gsort_test

// Only a build with CUDA starts a device for auto.
#if defined(GSORT_HOOKS_BINARY) && GSORT_HAVE_CUDA
namespace gsort_test {
namespace {

// auto on a GPU host starts the device while a pipe is read. A stream that
// the CPU sorted whole needs nothing of that start: gsort commits the
// output and exits without waiting for it, and neither its slowness nor
// its failure changes the result. gsort-test-hooks fakes the device here
// (GSORT_TEST_DEVICE_START=MS:ok|fail): a start of a minute, or one that
// fails at once (which may end before or after the sort).
TEST(StdinKinds, ASmallPipeNeitherWaitsForNorFailsWithTheDevicesStart) {
  TempDir dir;
  const std::string data = Rng(16).bytes(16 * 20000);
  for (const char* start : {"60000:fail", "60000:ok", "0:fail"}) {
    SCOPED_TRACE(start);
    ProcessOptions o;
    o.stdin_kind = StdinKind::kPipe;
    o.stdin_data = data;
    o.env = {std::string("GSORT_TEST_DEVICE_START=") + start};
    o.timeout_s = 50;  // the process must end long before the start would
    std::vector<std::string> argv = {GSORT_HOOKS_BINARY, "-v"};
    for (const std::string& a : with_spec({"-o", dir.file("out")})) argv.push_back(a);
    const auto began = std::chrono::steady_clock::now();
    const ProcessResult r = run_process(argv, o);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(read_file(dir.file("out")) == reference_sort(data, kSpec));
    if (start[0] != '0') {
      EXPECT_LT(seconds, 30) << "waited for the device's start";
      EXPECT_NE(r.err.find("the run does not wait for it"), std::string::npos) << r.err;
    }
    ::unlink(dir.file("out").c_str());
  }
  // A chunk small enough for the CPU (-S 64M) is the CPU's from the start:
  // the device is not started at all.
  ProcessOptions o;
  o.stdin_kind = StdinKind::kPipe;
  o.stdin_data = data;
  o.env = {"GSORT_TEST_DEVICE_START=60000:fail"};
  o.timeout_s = 50;
  std::vector<std::string> argv = {GSORT_HOOKS_BINARY, "-v", "-S", "64M", "--parallel", "4"};
  for (const std::string& a : with_spec({"-o", dir.file("out")})) argv.push_back(a);
  const ProcessResult r = run_process(argv, o);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(read_file(dir.file("out")) == reference_sort(data, kSpec));
  EXPECT_NE(r.err.find("the device was never started"), std::string::npos) << r.err;
}

// A stream that outgrows its chunk (-S 1M) needs the started backend for
// its chunks and runs: the deferred start begins (at half of the chunk) and
// is waited for; a start that fails leaves auto on the CPU, as a device
// that fails to start does. Either way every record comes out in order.
TEST(StdinKinds, AStreamThatOutgrowsItsChunkStartsTheDeviceItNeeds) {
  TempDir dir;
  const std::string data = Rng(17).bytes(16 * 20000);
  for (const char* start : {"300:ok", "300:fail"}) {
    SCOPED_TRACE(start);
    ProcessOptions o;
    o.stdin_kind = StdinKind::kPipe;
    o.stdin_data = data;
    o.env = {std::string("GSORT_TEST_DEVICE_START=") + start};
    std::vector<std::string> argv = {GSORT_HOOKS_BINARY, "-v", "-S", "1M", "--parallel", "4", "-T", dir.path()};
    for (const std::string& a : with_spec({"-o", dir.file("out")})) argv.push_back(a);
    const ProcessResult r = run_process(argv, o);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(read_file(dir.file("out")) == reference_sort(data, kSpec));
    EXPECT_NE(r.err.find("(started while the input is read)"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("the device was never started"), std::string::npos) << r.err;
    if (std::string(start).find("fail") != std::string::npos) {
      EXPECT_NE(r.err.find("the device failed to start (GSORT_TEST_DEVICE_START); using the CPU backend"),
                std::string::npos)
          << r.err;
    }
    ::unlink(dir.file("out").c_str());
  }
}

}  // namespace
}  // namespace gsort_test
#endif
