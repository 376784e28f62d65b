// The progress line (only on a terminal unless --progress; never with
// --no-progress; cleared at the end and before an error) and --stats (one
// JSON object whose numbers match the run).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <pty.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "src/report/progress.h"
#include "tests/support/process.h"
#include "tests/support/reference_sort.h"
#include "tests/support/temp_dir.h"

namespace gsort_test {
namespace {

const RefSpec kSpec = {16, {RefKey{0, 4, RefKind::kUnsigned, false, false}}, false, false};

std::string records(size_t n, uint64_t seed) {
  Rng rng(seed);
  return rng.bytes(n * 16);
}

std::vector<std::string> with_spec(std::vector<std::string> args) {
  std::vector<std::string> all = kSpec.args();
  all.insert(all.end(), args.begin(), args.end());
  return all;
}

void write_fully(int fd, const std::string& data) {
  size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<size_t>(n);
  }
}

struct TtyRun {
  int exit_code = -1;
  std::string tty;  // what gsort wrote to its stderr, a pseudo-terminal
};

// Runs gsort with stderr on a pseudo-terminal, stdout to out_path, and
// stdin a pipe that stays open (and empty) for hold_s seconds before
// `data` is written to it: the sort cannot end before then.
TtyRun run_on_tty(const std::vector<std::string>& args, const std::string& data, double hold_s,
                  const std::string& out_path) {
  int master = -1, slave = -1;
  winsize ws{};
  ws.ws_col = 160;
  ws.ws_row = 24;
  if (::openpty(&master, &slave, nullptr, nullptr, &ws) != 0) throw std::runtime_error("openpty failed");
  int in[2];
  if (::pipe(in) != 0) throw std::runtime_error("pipe failed");
  const int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  std::vector<std::string> argv = gsort_argv(args);
  std::vector<char*> cargv;
  for (std::string& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(in[0], 0);
    ::dup2(out, 1);
    ::dup2(slave, 2);
    ::close(in[0]);
    ::close(in[1]);
    ::close(out);
    ::close(slave);
    ::close(master);
    ::signal(SIGPIPE, SIG_DFL);
    ::execv(cargv[0], cargv.data());
    ::_exit(127);
  }
  ::close(in[0]);
  ::close(out);
  ::close(slave);
  std::thread feeder([&] {
    std::this_thread::sleep_for(std::chrono::duration<double>(hold_s));
    write_fully(in[1], data);
    ::close(in[1]);
  });
  TtyRun r;
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(master, buf, sizeof buf);
    if (n > 0) {
      r.tty.append(buf, static_cast<size_t>(n));
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      break;  // EIO: every slave descriptor is closed
    }
  }
  feeder.join();
  int status = 0;
  ::waitpid(pid, &status, 0);
  ::close(master);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// The line was drawn (a "gsort: <phase>" text after a \r) and cleared at
// the end: the text ends with \r, blanks, \r.
void expect_drawn_and_cleared(const std::string& tty) {
  EXPECT_NE(tty.find("\rgsort: "), std::string::npos) << tty;
  ASSERT_GE(tty.size(), 2u);
  EXPECT_EQ(tty.back(), '\r') << "the line must be cleared at the end";
  const size_t prev = tty.rfind('\r', tty.size() - 2);
  ASSERT_NE(prev, std::string::npos);
  const std::string last = tty.substr(prev + 1, tty.size() - prev - 2);
  EXPECT_FALSE(last.empty());
  EXPECT_EQ(last.find_first_not_of(' '), std::string::npos) << "cleared with blanks: [" << last << "]";
}

TEST(Progress, ShownOnATerminalAndClearedAtTheEnd) {
  TempDir dir;
  const std::string data = records(20000, 1);
  const TtyRun r = run_on_tty(with_spec({"-o", dir.file("out")}), data, 1.5, dir.file("stdout"));
  ASSERT_EQ(r.exit_code, 0) << r.tty;
  expect_drawn_and_cleared(r.tty);
  EXPECT_NE(r.tty.find("gsort: reading"), std::string::npos) << r.tty;
  EXPECT_EQ(r.tty.find('\n'), std::string::npos) << "nothing but the progress line: " << r.tty;
  EXPECT_EQ(read_file(dir.file("out")), reference_sort(data, kSpec));
}

TEST(Progress, NoProgressSilencesItOnATerminal) {
  TempDir dir;
  const std::string data = records(1000, 2);
  const TtyRun r = run_on_tty(with_spec({"--no-progress", "-o", dir.file("out")}), data, 1.0, dir.file("stdout"));
  ASSERT_EQ(r.exit_code, 0) << r.tty;
  EXPECT_EQ(r.tty, "");
  EXPECT_EQ(read_file(dir.file("out")), reference_sort(data, kSpec));
}

TEST(Progress, ClearedBeforeAnErrorMessage) {
  TempDir dir;
  const std::string data = records(100, 3) + "xyz";  // ends inside a record
  const TtyRun r = run_on_tty(with_spec({"-o", dir.file("out")}), data, 1.2, dir.file("stdout"));
  EXPECT_EQ(r.exit_code, 2) << r.tty;
  const size_t error = r.tty.find("gsort: standard input");
  ASSERT_NE(error, std::string::npos) << r.tty;
  ASSERT_GT(error, 0u) << "the progress line should have been drawn first: " << r.tty;
  EXPECT_EQ(r.tty[error - 1], '\r') << "the error starts on a cleared line: " << r.tty;
  EXPECT_FALSE(path_exists(dir.file("out")));
}

// Runs gsort with stdin a pipe held open for hold_s, stderr captured (not
// a terminal).
ProcessResult run_slow_stdin(const std::vector<std::string>& args, const std::string& data, double hold_s) {
  ProcessOptions options;
  options.stdin_kind = StdinKind::kPipe;
  Process p(gsort_argv(args), options);
  const int fd = p.take_stdin();
  std::this_thread::sleep_for(std::chrono::duration<double>(hold_s));
  write_fully(fd, data);
  ::close(fd);
  return p.wait(60);
}

TEST(Progress, NotShownWhenStderrIsNotATerminalUnlessForced) {
  TempDir dir;
  const std::string data = records(5000, 4);
  ProcessResult r = run_slow_stdin(with_spec({"-o", dir.file("out")}), data, 1.0);
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(r.err, "");
  r = run_slow_stdin(with_spec({"--progress", "-o", dir.file("out")}), data, 1.2);
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  expect_drawn_and_cleared(r.err);
  r = run_slow_stdin(with_spec({"--no-progress", "-o", dir.file("out")}), data, 1.0);
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(read_file(dir.file("out")), reference_sort(data, kSpec));
  // Both: the later one counts, as with any option given twice (an alias
  // with --progress, then --no-progress).
  r = run_slow_stdin(with_spec({"--progress", "--no-progress", "-o", dir.file("out2")}), data, 1.0);
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(r.err, "");
  r = run_slow_stdin(with_spec({"--no-progress", "--progress", "-o", dir.file("out2")}), data, 1.2);
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  expect_drawn_and_cleared(r.err);
}

// -c draws the progress line like a sort (here forced, stderr not being a
// terminal); -C stays silent unless --progress asks.
TEST(Progress, CheckModeShowsItToo) {
  const std::string sorted = reference_sort(records(5000, 8), kSpec);
  ProcessResult r = run_slow_stdin(with_spec({"-c", "--progress"}), sorted, 1.2);
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  expect_drawn_and_cleared(r.err);
  EXPECT_NE(r.err.find("gsort: checking"), std::string::npos) << r.err;
  r = run_slow_stdin(with_spec({"-C"}), sorted, 0.5);
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(r.err, "");
  r = run_slow_stdin(with_spec({"-C", "--progress"}), sorted, 1.2);
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  expect_drawn_and_cleared(r.err);
}

TEST(Progress, RenderShowsPhaseAmountShareAndRate) {
  gsort::ProgressMeter meter(false);
  EXPECT_EQ(meter.render(), "");
  std::atomic<uint64_t> done{1000};
  meter.phase("reading", 4u << 20, &done);
  done += 1u << 20;  // the phase counts from the counter's value at its start
  std::string line = meter.render();
  EXPECT_EQ(line.rfind("gsort: reading: 1.0 MiB of 4.0 MiB (25%)", 0), 0u) << line;
  std::this_thread::sleep_for(std::chrono::milliseconds(250));
  line = meter.render();
  EXPECT_NE(line.find("/s"), std::string::npos) << line;
  EXPECT_NE(line.find(" left"), std::string::npos) << line;
  meter.phase("merging", 0, &done);
  EXPECT_EQ(meter.render().find('%'), std::string::npos) << "no share without a total";
  meter.phase("sorting", 0, nullptr);
  EXPECT_EQ(meter.render(), "gsort: sorting");
  EXPECT_EQ(gsort::format_bytes(12), "12 B");
  EXPECT_EQ(gsort::format_bytes(1536), "1.5 KiB");
}

// ------------------------------------------------------------------ stats

nlohmann::json stats_of(const std::string& path) { return nlohmann::json::parse(read_file(path)); }

TEST(Stats, NumbersMatchASpillingRun) {
  TempDir dir;
  const std::string data = records(60000, 5);  // 960,000 bytes
  write_file(dir.file("in"), data);
  const ProcessResult r = run_gsort(
      with_spec({"-S", "64K", "--backend", "cpu", "--verify", dir.file("in"), "-o", dir.file("out"), "--stats",
                 dir.file("s.json")}));
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(r.err, "");
  const nlohmann::json s = stats_of(dir.file("s.json"));
  EXPECT_EQ(s["mode"], "sort");
  EXPECT_EQ(s["record_size"], 16);
  EXPECT_EQ(s["input"]["files"], 1);
  EXPECT_EQ(s["input"]["records"], 60000);
  EXPECT_EQ(s["input"]["bytes"], 960000);
  EXPECT_EQ(s["input"]["stored_bytes"], 960000);
  EXPECT_EQ(s["output"]["records"], 60000);
  EXPECT_EQ(s["output"]["bytes"], 960000);
  EXPECT_EQ(s["output"]["stored_bytes"], 960000);
  EXPECT_EQ(s["output"]["compressed"], false);
  EXPECT_EQ(s["in_memory"], false);
  // --backend cpu never asks a device to hold the input (issue 36).
  EXPECT_EQ(s["device_resident"]["bytes"], 0);
  EXPECT_TRUE(s["device_resident"]["why_not"].is_null()) << s["device_resident"];
  EXPECT_EQ(s["device_resident"]["held_runs"], 0);
  EXPECT_GT(s["runs"].get<uint64_t>(), 1u);
  EXPECT_GE(s["merge_passes"].get<uint64_t>(), 1u);
  EXPECT_GE(s["temp"]["bytes_written"].get<uint64_t>(), s["temp"]["record_bytes"].get<uint64_t>());
  EXPECT_GE(s["temp"]["record_bytes"].get<uint64_t>(), 960000u);
  EXPECT_EQ(s["temp"]["compressed"], false);
  EXPECT_NE(s["backend"].get<std::string>().find("cpu"), std::string::npos);
  EXPECT_GT(s["memory"]["peak_host_bytes"].get<uint64_t>(), 0u);
  // Sampled anonymous memory: some, and no more than the resident peak.
  EXPECT_GT(s["memory"]["peak_anonymous_bytes"].get<uint64_t>(), 0u);
  EXPECT_LE(s["memory"]["peak_anonymous_bytes"].get<uint64_t>(), s["memory"]["peak_host_bytes"].get<uint64_t>());
  EXPECT_EQ(s["memory"]["peak_device_bytes"], 0);
  // -S 64K is below the floor (src/pipeline/memory_plan.h): raised.
  EXPECT_EQ(s["memory"]["requested_bytes"], 65536);
  EXPECT_GE(s["memory"]["budget_bytes"].get<uint64_t>(), 256u << 10);
  EXPECT_EQ(s["verify"]["result"], "ok");
  for (const char* phase : {"read", "sort", "write runs", "final merge"}) {
    ASSERT_TRUE(s["phases_s"].contains(phase)) << phase << " in " << s["phases_s"].dump();
    EXPECT_GE(s["phases_s"][phase].get<double>(), 0.0);
  }
  EXPECT_GT(s["total_s"].get<double>(), 0.0);
  EXPECT_LE(s["phases_s"]["final merge"].get<double>(), s["total_s"].get<double>());
  EXPECT_GT(s["throughput_mb_s"].get<double>(), 0.0);
  for (const char* key : {"extract", "sort", "merge", "copy_in", "copy_out"}) {
    EXPECT_TRUE(s["backend_s"].contains(key)) << key;
  }
  EXPECT_FALSE(s["backend_s"].contains("gather"));  // no backend gathers: the output writer does
}

TEST(Stats, ToStderrAndWithCompressionAndUnique) {
  TempDir dir;
  std::string data = records(20000, 6);
  for (size_t i = 0; i < 20000; ++i) data[i * 16 + 1] = data[i * 16 + 2] = data[i * 16 + 3] = 0;  // keys < 256
  ProcessOptions in;
  in.stdin_kind = StdinKind::kPipe;
  in.stdin_data = data;
  const ProcessResult r = run_gsort(with_spec({"-u", "--verify", "--compress-output", "--stats", "-"}), in);
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  ASSERT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "one JSON line on stderr: " << r.err;
  const nlohmann::json s = nlohmann::json::parse(r.err);
  EXPECT_EQ(s["input"]["records"], 20000);
  EXPECT_EQ(s["input"]["files"], 1);
  EXPECT_LE(s["output"]["records"].get<uint64_t>(), 256u);
  EXPECT_EQ(s["output"]["bytes"].get<uint64_t>(), s["output"]["records"].get<uint64_t>() * 16);
  EXPECT_EQ(s["output"]["compressed"], true);
  EXPECT_EQ(s["output"]["zstd_level"], 3);
  EXPECT_EQ(s["output"]["stored_bytes"].get<uint64_t>(), r.out.size());
  EXPECT_EQ(s["output"]["destination"], "standard output");
  EXPECT_EQ(s["verify"]["result"], "ok");
  EXPECT_EQ(s["runs"], 0);
}

// -c / -C with --stats: what was checked and what was found, whether the
// input is sorted (exit 0) or not (exit 1).
// -m used to count its input bytes twice (once planned, once merged).
TEST(Stats, MergeCountsItsInputOnce) {
  TempDir dir;
  std::vector<std::string> args = {"-m", "-v", "--stats", dir.file("s.json"), "-o", dir.file("out")};
  for (int i = 0; i < 3; ++i) {
    write_file(dir.file("part" + std::to_string(i)), reference_sort(records(1000, 40 + i), kSpec));
    args.push_back(dir.file("part" + std::to_string(i)));
  }
  const ProcessResult r = run_gsort(with_spec(args));
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  const nlohmann::json s = stats_of(dir.file("s.json"));
  EXPECT_EQ(s["input"]["records"], 3000);
  EXPECT_EQ(s["input"]["bytes"], 48000);
  EXPECT_EQ(s["output"]["bytes"], 48000);
  EXPECT_NE(r.err.find("records: 3000 in, 3000 out"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("96000"), std::string::npos) << "twice the input: " << r.err;
}

TEST(Stats, CheckModeReportsWhatWasChecked) {
  TempDir dir;
  std::string sorted = reference_sort(records(3000, 9), kSpec);
  write_file(dir.file("sorted"), sorted);
  ProcessResult r = run_gsort(with_spec({"-c", dir.file("sorted"), "--stats", dir.file("s.json")}));
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_EQ(r.err, "");
  nlohmann::json s = stats_of(dir.file("s.json"));
  EXPECT_EQ(s["mode"], "check");
  EXPECT_EQ(s["record_size"], 16);
  EXPECT_EQ(s["input"]["records"], 3000);
  EXPECT_EQ(s["input"]["bytes"], 48000);
  EXPECT_EQ(s["check"]["sorted"], true);
  EXPECT_EQ(s["check"]["strict"], false);
  EXPECT_TRUE(s["check"]["disorder_at_record"].is_null());
  EXPECT_GT(s["total_s"].get<double>(), 0.0);

  // Records 1000 and 1001 (1-based) swapped: the disorder is found at 1001.
  std::string broken = sorted;
  ASSERT_NE(broken.compare(999 * 16, 4, broken, 1000 * 16, 4), 0) << "the two keys must differ";
  std::swap_ranges(broken.begin() + 999 * 16, broken.begin() + 1000 * 16, broken.begin() + 1000 * 16);
  write_file(dir.file("broken"), broken);
  r = run_gsort(with_spec({"-c", dir.file("broken"), "--stats", dir.file("b.json")}));
  ASSERT_EQ(r.status(), "exit 1") << r.err;
  EXPECT_NE(r.err.find("disorder at record 1001"), std::string::npos) << r.err;
  s = stats_of(dir.file("b.json"));
  EXPECT_EQ(s["check"]["sorted"], false);
  EXPECT_EQ(s["check"]["disorder_at_record"], 1001);
  EXPECT_EQ(s["input"]["records"], 1001);

  // -C reports nothing but the statistics asked for, here on stderr.
  r = run_gsort(with_spec({"-C", dir.file("broken"), "--stats", "-"}));
  ASSERT_EQ(r.status(), "exit 1") << r.err;
  ASSERT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "one JSON line on stderr: " << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.err)["check"]["disorder_at_record"], 1001);
}

TEST(Stats, UnwritableStatsFileFailsBeforeAnyWork) {
  TempDir dir;
  write_file(dir.file("in"), records(100, 7));
  const ProcessResult r =
      run_gsort(with_spec({dir.file("in"), "-o", dir.file("out"), "--stats", dir.file("no-such-dir/s.json")}));
  EXPECT_EQ(r.status(), "exit 2");
  EXPECT_NE(r.err.find("no-such-dir"), std::string::npos) << r.err;
  EXPECT_FALSE(path_exists(dir.file("out")));
  EXPECT_EQ(count_files(dir.path()), 1u);
}

}  // namespace
}  // namespace gsort_test

namespace gsort_test {
namespace {

// --stats - on a terminal: indented JSON, after -v's lines, not one long
// line in their middle; elsewhere one line. (util-linux's script gives the
// command a terminal.)
// -v times what lies outside the run's own clock: the start before main()
// and, last, the freeing of the backend, buffers and threads after the total.
TEST(Verbose, SaysWhenMainBeganAndLastTheTeardown) {
  TempDir dir;
  write_file(dir.file("in"), std::string(3000, 'x'));
  const ProcessResult r = run_gsort({"-v", "--record-size", "10", dir.file("in"), "-o", dir.file("out")});
  ASSERT_EQ(r.status(), "exit 0") << r.err;
  EXPECT_NE(r.err.find("gsort: clock: main() began "), std::string::npos) << r.err;
  const size_t teardown = r.err.rfind("\ngsort: teardown: ");
  ASSERT_NE(teardown, std::string::npos) << r.err;
  EXPECT_NE(r.err.find(" s after the total\n", teardown), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find('\n', teardown + 1), r.err.size() - 1) << "not the last line: " << r.err;
  EXPECT_LT(r.err.find("gsort: total: "), teardown) << r.err;
}

TEST(StatsOnStderr, IndentedOnATerminalAndAfterTheVerboseLines) {
  if (::access("/usr/bin/script", X_OK) != 0) GTEST_SKIP() << "no script(1)";
  TempDir dir;
  write_file(dir.file("in"), std::string(3000, 'x'));
  const std::string command = std::string(GSORT_BINARY) + " -v --stats - --record-size 10 " + dir.file("in") +
                              " -o " + dir.file("out") + " 2>&1";
  const ProcessResult r = run_process({"/usr/bin/script", "-qec", command, "/dev/null"});
  ASSERT_EQ(r.status(), "exit 0") << r.out;
  const size_t json = r.out.find("{\r\n  \"gsort_version\"");
  ASSERT_NE(json, std::string::npos) << "not indented: " << r.out.substr(0, 400);
  EXPECT_EQ(r.out.find("gsort: ", json), std::string::npos) << "a -v line after the JSON began";
  // Not a terminal: one line.
  const ProcessResult plain =
      run_gsort({"--stats", "-", "--record-size", "10", dir.file("in"), "-o", dir.file("out")});
  ASSERT_EQ(plain.status(), "exit 0") << plain.err;
  EXPECT_EQ(std::count(plain.err.begin(), plain.err.end(), '\n'), 1) << plain.err;
}

}  // namespace
}  // namespace gsort_test
