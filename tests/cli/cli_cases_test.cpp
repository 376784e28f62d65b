// Runs the CLI error cases of tests/cli/cases/*.case (format: the README
// there): each case's command must exit with its code, print nothing on
// stdout and exactly its stderr line (or lines), and leave its scratch directory
// as it found it (inputs untouched, no output, no temporary files).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <ostream>
#include <regex>
#include <string>
#include <vector>

#include "tests/cli/case_file.h"
#include "tests/support/process.h"
#include "tests/support/rng.h"
#include "tests/support/temp_dir.h"

namespace gsort_test {
namespace {

// GSORT_CLI_CASES_DIR from the environment (a packed build run elsewhere),
// else the source tree's tests/cli/cases.
std::string cases_dir() {
  const char* env = std::getenv("GSORT_CLI_CASES_DIR");
  return env && *env ? env : GSORT_CLI_CASES_DIR;
}

// The cases, or why they could not be read (then one test fails saying so).
struct LoadedCases {
  std::vector<CliCase> cases;
  std::string error;
};

const LoadedCases& loaded_cases() {
  static const LoadedCases loaded = [] {
    LoadedCases l;
    try {
      l.cases = load_cli_cases(cases_dir());
    } catch (const std::exception& e) {
      l.error = e.what();
    }
    return l;
  }();
  return loaded;
}

bool names_output(const CliCase& c) {
  return std::any_of(c.command.begin(), c.command.end(),
                     [](const std::string& a) { return a.find("{out}") != std::string::npos; });
}

// One run of a case: with its destination absent or, for a case that names
// {out}, already holding other content.
struct CaseRun {
  size_t index;  // into loaded_cases().cases; npos: the load failed
  bool output_existed;
};

// How gtest shows a run: the case's file and line.
void PrintTo(const CaseRun& run, std::ostream* os) {
  if (run.index == std::string::npos) {
    *os << "(no cases)";
  } else {
    *os << loaded_cases().cases[run.index].where << (run.output_existed ? ", output existed" : "");
  }
}

std::vector<CaseRun> case_runs() {
  const LoadedCases& l = loaded_cases();
  if (!l.error.empty()) return {{std::string::npos, false}};
  std::vector<CaseRun> runs;
  for (size_t i = 0; i < l.cases.size(); ++i) {
    runs.push_back({i, false});
    if (names_output(l.cases[i])) runs.push_back({i, true});
  }
  return runs;
}

std::string run_name(const testing::TestParamInfo<CaseRun>& info) {
  if (info.param.index == std::string::npos) return "CaseFilesUnreadable";
  return loaded_cases().cases[info.param.index].name + (info.param.output_existed ? "_OutputExisted" : "");
}

// Writes what the case needs into dir.
void prepare(const CliCase& c, const TempDir& dir, bool output_existed) {
  dir.subdir("tmp");
  dir.subdir("out");
  Rng rng(30);
  write_file(dir.file("good.bin"), rng.bytes(1000 * 10));
  for (const CaseFile& f : c.files) {
    write_file(dir.file(f.name), f.random ? rng.bytes(f.size) : std::string(f.size, f.fill));
    if (f.unreadable) chmod(dir.file(f.name).c_str(), 0);
  }
  if (output_existed) write_file(dir.file("out/result.bin"), "precious\n");
}

ProcessResult run_case(const CliCase& c, const std::vector<std::string>& args) {
  ProcessOptions options;
  if (!c.stdin_data.empty()) {
    options.stdin_kind = StdinKind::kPipe;
    options.stdin_data = c.stdin_data;
  }
  return c.command[0] == "gsort-gen" ? run_gsort_gen(args, options) : run_gsort(args, options);
}

// The scratch directory after the run is the one before it.
void expect_tree_unchanged(const std::map<std::string, std::string>& before,
                           const std::map<std::string, std::string>& after) {
  for (const auto& [name, content] : after) {
    const auto it = before.find(name);
    if (it == before.end()) {
      ADD_FAILURE() << "left a new file behind: " << name;
    } else if (it->second != content) {
      ADD_FAILURE() << "changed " << name;
    }
  }
  for (const auto& [name, content] : before) EXPECT_TRUE(after.count(name)) << "removed " << name;
}

class CliCaseTest : public testing::TestWithParam<CaseRun> {};

TEST_P(CliCaseTest, FailsAsWritten) {
  ASSERT_NE(GetParam().index, std::string::npos) << loaded_cases().error;
  const CliCase& c = loaded_cases().cases[GetParam().index];
  const bool unreadable = std::any_of(c.files.begin(), c.files.end(), [](const CaseFile& f) { return f.unreadable; });
  if (unreadable && geteuid() == 0) GTEST_SKIP() << "root can read a chmod 000 file";
  ASSERT_TRUE(c.command[0] == "gsort" || c.command[0] == "gsort-gen") << c.where << ": runs " << c.command[0];

  TempDir dir;
  prepare(c, dir, GetParam().output_existed);
  std::vector<std::string> args;
  for (size_t i = 1; i < c.command.size(); ++i) args.push_back(expand_placeholders(c.command[i], dir.path()));
  const std::string cmd = command_line(c.command[0] == "gsort-gen" ? gsort_gen_argv(args) : gsort_argv(args));
  SCOPED_TRACE(c.where + ": " + cmd);

  const auto before = snapshot_tree(dir.path());
  const ProcessResult r = run_case(c, args);
  EXPECT_EQ(r.status(), "exit " + std::to_string(c.exit_code)) << "stderr: " << r.err;
  EXPECT_EQ(r.out, "") << "stdout must be empty";
  if (!c.stderr_line.empty()) {
    EXPECT_EQ(r.err, expand_placeholders(c.stderr_line, dir.path()) + "\n");
  } else {
    const std::string pattern = expand_placeholders(c.stderr_pattern, dir.path());
    EXPECT_TRUE(!r.err.empty() && r.err.find('\n') == r.err.size() - 1) << "want one line: " << r.err;
    EXPECT_TRUE(std::regex_match(r.err.substr(0, r.err.find('\n')), std::regex(pattern)))
        << "stderr: " << r.err << "does not match: " << pattern;
  }
  expect_tree_unchanged(before, snapshot_tree(dir.path()));
}

INSTANTIATE_TEST_SUITE_P(CliCases, CliCaseTest, testing::ValuesIn(case_runs()), run_name);

}  // namespace
}  // namespace gsort_test
