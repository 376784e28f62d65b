#include "tests/lines/gnu_diff.h"

#include <cstdlib>
#include <stdexcept>

#include "src/api/run_config.h"
#include "src/core/errors.h"
#include "tests/support/line_gen.h"
#include "tests/support/parse_args.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gsort_test {
namespace {

const char* const kGnuSort = "/usr/bin/sort";

std::string printable(const std::string& s, size_t most = 600) {
  std::string out;
  for (unsigned char c : s.substr(0, most)) {
    if (c == '\n') out += "\\n\n";
    else if (c >= 32 && c < 127 && c != '\\') out += static_cast<char>(c);
    else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    }
  }
  return s.size() > most ? out + "..." : out;
}

// The gsort side in this process: parse, then run, into `out`.
std::string gsort_in_process(const std::vector<std::string>& args, const std::string& input, const std::string& out) {
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  argv.push_back("-o");
  argv.push_back(out.c_str());
  argv.push_back(input.c_str());
  try {
    const gsort::SortConfig config = config_of(argv);
    gsort::RunOptions run;
    run.output = config.output;
    gsort::run_config(config, run);
  } catch (const gsort::Error& e) {
    return std::string("gsort failed: ") + e.what();
  }
  return read_file(out);
}

DiffOutcome compare(const LineOptionsCase& o, const std::string& data, const std::string& gnu, const std::string& ours,
                    uint64_t seed, int index) {
  DiffOutcome d;
  if (gnu == ours) return d;
  d.same = false;
  // Kept for a rerun by hand: $TMPDIR/gsort_diff_case (the arguments are in the message).
  const char* tmp = std::getenv("TMPDIR");
  const std::string keep = std::string(tmp && *tmp ? tmp : "/tmp") + "/gsort_diff_case";
  write_file(keep, data);
  d.what = "(input kept in " + keep + ")\n" + "case " + std::to_string(index) + " of seed " + std::to_string(seed) + ": sort " + join_args(o.args) +
           "\n--- input ---\n" + printable(data) + "\n--- GNU sort ---\n" + printable(gnu) + "\n--- gsort ---\n" +
           printable(ours);
  return d;
}

ProcessOptions c_locale() {
  ProcessOptions p;
  p.env = {"LC_ALL=C"};
  return p;
}

}  // namespace

DiffOutcome run_gnu_differential(uint64_t seed, int cases, size_t max_lines,
                                 const std::vector<std::string>& extra_args) {
  Rng rng(seed);
  TempDir dir;
  const std::string input = dir.file("in"), out = dir.file("out");
  for (int i = 0; i < cases; ++i) {
    const LineOptionsCase o = random_line_options(rng);
    const std::string data = random_line_input(rng, o, max_lines);
    write_file(input, data);
    std::vector<std::string> gnu_argv = {kGnuSort};
    gnu_argv.insert(gnu_argv.end(), o.args.begin(), o.args.end());
    gnu_argv.push_back(input);
    Process gnu(gnu_argv, c_locale());  // runs beside the gsort side
    std::vector<std::string> ours_args = o.args;
    ours_args.insert(ours_args.end(), extra_args.begin(), extra_args.end());
    const std::string ours = gsort_in_process(ours_args, input, out);
    const ProcessResult r = gnu.wait(60);
    if (r.exit_code != 0) throw std::runtime_error("GNU sort failed: " + join_args(o.args) + ": " + r.err);
    const DiffOutcome d = compare(o, data, r.out, ours, seed, i);
    if (!d.same) return d;
  }
  return {};
}

DiffOutcome run_gnu_differential_cli(uint64_t seed, int cases, size_t max_lines,
                                     const std::vector<std::string>& extra_args) {
  Rng rng(seed);
  for (int i = 0; i < cases; ++i) {
    const LineOptionsCase o = random_line_options(rng);
    ProcessOptions p = c_locale();
    p.stdin_kind = StdinKind::kPipe;
    p.stdin_data = random_line_input(rng, o, max_lines);
    std::vector<std::string> gnu_argv = {kGnuSort}, ours_argv = {GSORT_BINARY};
    gnu_argv.insert(gnu_argv.end(), o.args.begin(), o.args.end());
    ours_argv.insert(ours_argv.end(), o.args.begin(), o.args.end());
    ours_argv.insert(ours_argv.end(), extra_args.begin(), extra_args.end());
    const ProcessResult gnu = run_process(gnu_argv, p);
    const ProcessResult ours = run_process(ours_argv, p);
    if (ours.exit_code != 0) return {false, "gsort " + join_args(o.args) + ": " + ours.status() + ": " + ours.err};
    const DiffOutcome d = compare(o, p.stdin_data, gnu.out, ours.out, seed, i);
    if (!d.same) return d;
  }
  return {};
}

}  // namespace gsort_test
