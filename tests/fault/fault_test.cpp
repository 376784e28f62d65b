// The gsort binary under injected file system faults (fault_shim.c). Each
// failure case checks: exit 2, one line naming the file and the cause, the
// destination and the input as they were, no temp file left in -T or
// beside the output. Each transient case (short transfers, EINTR) checks:
// exit 0 and the output of an undisturbed run, byte for byte. Every case
// also checks that its fault was injected at least once.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace fs = std::filesystem;

namespace {

extern "C" char** environ;

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void write_file(const fs::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

std::vector<std::string> entries(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  return names;
}

struct RunResult {
  int exit_code = -1;  // -1: killed by a signal
  std::string err;
};

// Runs argv with `env` added to ours; stdin from /dev/null, stderr to a file.
RunResult run(const std::vector<std::string>& args, const std::vector<std::string>& env, const fs::path& err_path) {
  std::vector<std::string> env_strings = env;
  for (char** e = environ; *e != nullptr; ++e) env_strings.emplace_back(*e);  // earlier entries win
  std::vector<char*> envp, argv;
  for (std::string& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::vector<std::string> arg_strings = args;
  for (std::string& s : arg_strings) argv.push_back(s.data());
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int in = ::open("/dev/null", O_RDONLY);
    const int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (in < 0 || err < 0 || ::dup2(in, 0) < 0 || ::dup2(err, 2) < 0) ::_exit(127);
    ::execve(argv[0], argv.data(), envp.data());
    ::_exit(127);
  }
  RunResult r;
  int status = 0;
  if (pid < 0 || ::waitpid(pid, &status, 0) != pid) return r;
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  r.err = read_file(err_path);
  return r;
}

class FaultTest : public ::testing::Test {
 protected:
  // 40,000 gensort records (4 MB): -S 1M spills several runs.
  static constexpr const char* kRecords = "40000";
  static constexpr const char* kOldDestination = "the destination before gsort ran\n";

  void SetUp() override {
    std::string templ = (fs::temp_directory_path() / "gsort-fault-XXXXXX").string();
    ASSERT_NE(::mkdtemp(templ.data()), nullptr);
    root_ = fs::canonical(templ);  // the shim matches the kernel's names
    for (const char* d : {"in", "tmp", "out"}) fs::create_directory(root_ / d);
    input_ = root_ / "in" / "input.bin";
    dest_ = root_ / "out" / "dest.bin";
    const RunResult gen = run({GSORT_GEN_BINARY, "--format", "gensort", "-n", kRecords, "-o", input_.string()}, {},
                              root_ / "gen.err");
    ASSERT_EQ(gen.exit_code, 0) << gen.err;
    input_bytes_ = read_file(input_);
    // The output of an undisturbed run, for the transient faults.
    const RunResult ref = run(sort_args({"-S", "1M"}), {}, root_ / "ref.err");
    ASSERT_EQ(ref.exit_code, 0) << ref.err;
    expected_ = read_file(dest_);
    ASSERT_EQ(expected_.size(), input_bytes_.size());
    write_file(dest_, kOldDestination);
  }

  void TearDown() override { fs::remove_all(root_); }

  std::vector<std::string> sort_args(std::vector<std::string> extra) const {
    std::vector<std::string> args{GSORT_BINARY, "--format", "gensort", "--no-progress", "-T",
                                  (root_ / "tmp").string(), "-o", dest_.string()};
    args.insert(args.end(), extra.begin(), extra.end());
    args.push_back(input_.string());
    return args;
  }

  // gsort with `extra` options under the fault rule(s) `fault`.
  RunResult sort_under(const std::string& fault, std::vector<std::string> extra) {
    fs::remove(root_ / "faults.log");  // each run proves its own fault fired
    // ASan wants to be the first library; the shim must be, to be reached.
    const char* asan = std::getenv("ASAN_OPTIONS");
    const std::string asan_options =
        std::string("ASAN_OPTIONS=") + (asan ? std::string(asan) + ":" : "") + "verify_asan_link_order=0";
    return run(sort_args(std::move(extra)),
               {std::string("LD_PRELOAD=") + GSORT_FAULT_SHIM, "GSORT_FAULT=" + fault,
                "GSORT_FAULT_LOG=" + (root_ / "faults.log").string(), asan_options},
               root_ / "sort.err");
  }

  std::string dir(const char* name) const { return (root_ / name).string() + "/"; }

  void expect_fault_injected() const {
    EXPECT_FALSE(read_file(root_ / "faults.log").empty()) << "the fault never fired: the test proves nothing";
  }

  void expect_nothing_left_behind() const {
    EXPECT_TRUE(entries(root_ / "tmp").empty()) << "left in -T: " << ::testing::PrintToString(entries(root_ / "tmp"));
    EXPECT_EQ(entries(root_ / "out"), std::vector<std::string>{"dest.bin"});
    EXPECT_EQ(entries(root_ / "in"), std::vector<std::string>{"input.bin"});
    EXPECT_TRUE(read_file(input_) == input_bytes_) << "the input changed";
  }

  // Exit 2 with one line "gsort: ..." holding every one of `words`; the
  // destination as it was.
  void expect_clean_failure(const RunResult& r, const std::vector<std::string>& words) const {
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(r.err.rfind("gsort: ", 0), 0u) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    for (const std::string& w : words) EXPECT_NE(r.err.find(w), std::string::npos) << "no '" << w << "' in: " << r.err;
    EXPECT_EQ(read_file(dest_), kOldDestination) << "the destination changed";
    expect_fault_injected();
    expect_nothing_left_behind();
  }

  // Exit 0, nothing said, and the output of the undisturbed run.
  void expect_correct_output(const RunResult& r) const {
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_TRUE(read_file(dest_) == expected_) << "the output differs from an undisturbed run's";
    expect_fault_injected();
    expect_nothing_left_behind();
  }

  fs::path root_, input_, dest_;
  std::string input_bytes_, expected_;
};

// ---------------------------------------------------------------- failures

TEST_F(FaultTest, EnospcOnSpilledRun) {
  const RunResult r = sort_under("write:ENOSPC:after=2:path=" + dir("tmp"), {"-S", "1M"});
  expect_clean_failure(r, {dir("tmp"), "no space left on device"});
}

TEST_F(FaultTest, EnospcOnCompressedSpilledRun) {
  const RunResult r = sort_under("write:ENOSPC:after=2:path=" + dir("tmp"), {"-S", "1M", "--compress-temp"});
  expect_clean_failure(r, {dir("tmp"), "no space left on device"});
}

// Runs written as several files at once (spill streams): the first write
// to fail stops them all.
TEST_F(FaultTest, EnospcOnSpilledRunOfSeveralStreams) {
  const RunResult r = sort_under("write:ENOSPC:after=5:path=" + dir("tmp"), {"-S", "4M", "--spill-streams", "4"});
  expect_clean_failure(r, {dir("tmp"), "no space left on device"});
}

TEST_F(FaultTest, EnospcOnCompressedRunOfSeveralStreams) {
  const RunResult r = sort_under("write:ENOSPC:after=5:path=" + dir("tmp"),
                                 {"-S", "4M", "--spill-streams", "4", "--compress-temp"});
  expect_clean_failure(r, {dir("tmp"), "no space left on device"});
}

// A mapped output is reserved first; a disk without room for the whole
// output at once leaves it to the stream (below), and a stream that meets
// a full disk fails at its write, as does one where the file system cannot
// reserve.
TEST_F(FaultTest, EnospcOnOutputInMemory) {
  RunResult r = sort_under("fallocate:ENOSPC:path=" + dir("out") + ";write:ENOSPC:path=" + dir("out"), {});
  expect_clean_failure(r, {"dest.bin", "no space left on device"});
  r = sort_under("fallocate:EOPNOTSUPP:path=" + dir("out") + ";write:ENOSPC:path=" + dir("out"), {});
  expect_clean_failure(r, {"dest.bin", "no space left on device"});
}

TEST_F(FaultTest, EnospcOnOutputOfMerge) {
  RunResult r =
      sort_under("fallocate:ENOSPC:path=" + dir("out") + ";write:ENOSPC:after=1:path=" + dir("out"), {"-S", "1M"});
  expect_clean_failure(r, {"dest.bin", "no space left on device"});
  r = sort_under("fallocate:EOPNOTSUPP:path=" + dir("out") + ";write:ENOSPC:after=1:path=" + dir("out"), {"-S", "1M"});
  expect_clean_failure(r, {"dest.bin", "no space left on device"});
}

// The reservation holds the whole output at once, where the stream grows
// as the runs are freed: a reservation that finds no room falls back to
// the stream, as one the file system cannot make does, and the output
// comes out the same.
TEST_F(FaultTest, EnospcReservingTheOutputFallsBackToTheStream) {
  for (const char* memory : {"64M", "1M"}) {
    const RunResult r = sort_under("fallocate:ENOSPC:path=" + dir("out"), {"-S", memory});
    expect_correct_output(r);
  }
}

// Without fallocate the output is written as a stream, and comes out the same.
TEST_F(FaultTest, OutputWithoutFallocateIsAStream) {
  for (const char* memory : {"64M", "1M"}) {
    const RunResult r = sort_under("fallocate:EOPNOTSUPP:path=" + dir("out"), {"-S", memory});
    expect_correct_output(r);
  }
}

TEST_F(FaultTest, EioReadingInput) {
  const RunResult r = sort_under("read:EIO:path=" + input_.string(), {"-S", "1M"});
  expect_clean_failure(r, {input_.string(), "Input/output error"});
}

TEST_F(FaultTest, EioReadingSpilledRun) {
  const RunResult r = sort_under("read:EIO:path=" + dir("tmp"), {"-S", "1M"});
  expect_clean_failure(r, {dir("tmp"), "Input/output error"});
}

TEST_F(FaultTest, EioReadingARunOfSeveralStreams) {
  const RunResult r = sort_under("read:EIO:after=3:path=" + dir("tmp"), {"-S", "4M", "--spill-streams", "3"});
  expect_clean_failure(r, {dir("tmp"), "Input/output error"});
}

TEST_F(FaultTest, EioReadingInputWhosePagesAreDropped) {
  const RunResult r = sort_under("read:EIO:after=2:path=" + input_.string(), {"-S", "1M", "--page-cache", "drop"});
  expect_clean_failure(r, {input_.string(), "Input/output error"});
}

TEST_F(FaultTest, FsyncFailsWithFsyncOption) {
  const RunResult r = sort_under("fsync:EIO:path=" + dir("out"), {"--fsync"});
  expect_clean_failure(r, {"dest.bin", "Input/output error"});
}

TEST_F(FaultTest, RenameOfOutputFails) {
  const RunResult r = sort_under("rename:EIO:path=" + dest_.string(), {});
  expect_clean_failure(r, {"dest.bin", "Input/output error"});
}

// ---------------------------------------------- transient: retried silently

TEST_F(FaultTest, ShortWritesEverywhere) {
  expect_correct_output(sort_under("write:short", {"-S", "1M"}));
}

TEST_F(FaultTest, ShortWritesWithCompressedRuns) {
  expect_correct_output(sort_under("write:short", {"-S", "1M", "--compress-temp"}));
}

TEST_F(FaultTest, ShortWritesWithSeveralStreams) {
  expect_correct_output(sort_under("write:short", {"-S", "4M", "--spill-streams", "4"}));
}

TEST_F(FaultTest, ShortReadsWithSeveralStreamsAndDroppedPages) {
  expect_correct_output(sort_under("read:short", {"-S", "4M", "--spill-streams", "4", "--page-cache", "drop"}));
}

TEST_F(FaultTest, ShortReadsEverywhere) {
  expect_correct_output(sort_under("read:short", {"-S", "1M"}));
}

TEST_F(FaultTest, ShortReadsWithCompressedRuns) {
  expect_correct_output(sort_under("read:short", {"-S", "1M", "--compress-temp"}));
}

TEST_F(FaultTest, EintrOnReads) {
  expect_correct_output(sort_under("read:EINTR:every=2", {"-S", "1M"}));
}

TEST_F(FaultTest, EintrOnWrites) {
  expect_correct_output(sort_under("write:EINTR:every=2", {"-S", "1M"}));
}

}  // namespace
