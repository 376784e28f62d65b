#include "tests/lines/gnu_diff.h"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

#include "src/api/run_config.h"
#include "src/config/line_locale.h"
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
std::string gsort_in_process(const std::vector<std::string>& args, const std::vector<std::string>& inputs,
                             const std::string& out) {
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  argv.push_back("-o");
  argv.push_back(out.c_str());
  for (const std::string& in : inputs) argv.push_back(in.c_str());
  try {
    gsort::SortConfig config = config_of(argv);
    // GNU sort runs with LC_ALL=C (c_locale()); gsort here, in this
    // process, would take the caller's locale from the environment.
    config.lines.locale = gsort::line_locale_named("C");
    gsort::RunOptions run;
    run.output = config.output;
    gsort::run_config(config, run);
  } catch (const gsort::Error& e) {
    return std::string("gsort failed: ") + e.what();
  }
  return read_file(out);
}

// Whether args order by -V (a global option, a key's modifier, or sort's
// long names for it).
bool orders_by_version(const std::vector<std::string>& args) {
  for (const std::string& a : args) {
    if (a == "--version-sort" || a == "--sort=version") return true;
    if (a.size() > 1 && a[0] == '-' && a[1] != '-' && a[1] != 't' && a.find('V') != std::string::npos) return true;
  }
  return false;
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

}  // namespace

bool gnu_sort_has_current_version_order() {
  static const bool current = run_process({"/bin/sh", "-c", std::string("printf '.A\\n.0\\n' | ") + kGnuSort + " -V"},
                                          c_locale()).out == ".0\n.A\n";
  return current;
}

bool gnu_sort_reads_0x80_as_a_separator() {
  static const bool reads =
      run_process({"/bin/sh", "-c", std::string("printf '1\\2009\\n13\\n' | ") + kGnuSort + " -n"}, c_locale()).out ==
      "13\n1\x80" "9\n";
  return reads;
}

std::string comparable_line_input(Rng& rng, const LineOptionsCase& o, size_t max_lines) {
  std::string data = random_line_input(rng, o, max_lines);
  if (gnu_sort_reads_0x80_as_a_separator()) std::replace(data.begin(), data.end(), '\x80', '\x81');
  return data;
}

LineOptionsCase comparable_line_options(Rng& rng) {
  LineOptionsCase o = random_line_options(rng);
  while (!gnu_sort_has_current_version_order() && orders_by_version(o.args)) o = random_line_options(rng);
  return o;
}

DiffOutcome run_gnu_differential(uint64_t seed, int cases, size_t max_lines,
                                 const std::vector<std::string>& extra_args) {
  Rng rng(seed);
  TempDir dir;
  const std::string input = dir.file("in"), out = dir.file("out");
  for (int i = 0; i < cases; ++i) {
    const LineOptionsCase o = comparable_line_options(rng);
    const std::string data = comparable_line_input(rng, o, max_lines);
    write_file(input, data);
    std::vector<std::string> gnu_argv = {kGnuSort};
    gnu_argv.insert(gnu_argv.end(), o.args.begin(), o.args.end());
    gnu_argv.push_back(input);
    Process gnu(gnu_argv, c_locale());  // runs beside the gsort side
    std::vector<std::string> ours_args = o.args;
    ours_args.insert(ours_args.end(), extra_args.begin(), extra_args.end());
    const std::string ours = gsort_in_process(ours_args, {input}, out);
    const ProcessResult r = gnu.wait(60);
    if (r.exit_code != 0) throw std::runtime_error("GNU sort failed: " + join_args(o.args) + ": " + r.err);
    const DiffOutcome d = compare(o, data, r.out, ours, seed, i);
    if (!d.same) return d;
  }
  return {};
}

namespace {

enum class Shape { kSorted, kUnsorted, kPartlySorted };

// Lines of `data` (each with its terminator; a last one may lack it).
std::vector<std::string> split_lines(const std::string& data, char eol) {
  std::vector<std::string> lines;
  for (size_t at = 0; at < data.size();) {
    const size_t end = data.find(eol, at);
    const size_t next = end == std::string::npos ? data.size() : end + 1;
    lines.push_back(data.substr(at, next - at));
    at = next;
  }
  return lines;
}

// `data` as one input of -m: sorted by GNU sort with the case's options, as
// it is, or sorted and then disturbed (a few lines swapped with others).
std::string shaped_input(Rng& rng, const LineOptionsCase& o, const std::string& data, Shape shape,
                         const std::string& scratch) {
  if (shape == Shape::kUnsorted) return data;
  write_file(scratch, data);
  std::vector<std::string> argv = {kGnuSort};
  argv.insert(argv.end(), o.args.begin(), o.args.end());
  argv.push_back(scratch);
  const ProcessResult sorted = run_process(argv, c_locale());
  if (sorted.exit_code != 0) throw std::runtime_error("GNU sort failed: " + join_args(o.args) + ": " + sorted.err);
  if (shape == Shape::kSorted) return sorted.out;
  std::vector<std::string> lines = split_lines(sorted.out, o.zero_terminated ? '\0' : '\n');
  for (uint64_t k = 0, swaps = rng.range(1, 3); k < swaps && lines.size() > 1; ++k) {
    std::swap(lines[rng.below(lines.size())], lines[rng.below(lines.size())]);
  }
  std::string out;
  for (const std::string& line : lines) out += line;
  return out;
}

}  // namespace

DiffOutcome run_gnu_merge_differential(uint64_t seed, int cases, size_t max_lines,
                                       const std::vector<unsigned>& thread_counts,
                                       const std::vector<std::string>& extra_args) {
  Rng rng(seed);
  TempDir dir;
  const std::string out = dir.file("out");
  for (int i = 0; i < cases; ++i) {
    const LineOptionsCase o = comparable_line_options(rng);
    std::vector<std::string> inputs;
    std::string described;
    for (uint64_t f = 0, count = rng.range(1, 5); f < count; ++f) {
      if (f > 0 && rng.chance(15)) {  // the same input again
        inputs.push_back(inputs[rng.below(inputs.size())]);
        continue;
      }
      const Shape shape = static_cast<Shape>(rng.below(3));
      const std::string data = comparable_line_input(rng, o, max_lines);
      inputs.push_back(dir.file("in" + std::to_string(f)));
      write_file(inputs.back(), shaped_input(rng, o, data, shape, dir.file("scratch")));
      described += "\n--- " + inputs.back() + " (" + (shape == Shape::kSorted ? "sorted" : shape == Shape::kUnsorted ? "unsorted" : "partly sorted") + ") ---\n" + read_file(inputs.back()).substr(0, 200);
    }
    std::vector<std::string> gnu_argv = {kGnuSort, "-m"};
    gnu_argv.insert(gnu_argv.end(), o.args.begin(), o.args.end());
    gnu_argv.insert(gnu_argv.end(), inputs.begin(), inputs.end());
    const ProcessResult gnu = run_process(gnu_argv, c_locale());
    if (gnu.exit_code != 0) throw std::runtime_error("GNU sort -m failed: " + join_args(o.args) + ": " + gnu.err);
    std::vector<std::string> ours_args = {"-m", "--parallel", std::to_string(thread_counts[i % thread_counts.size()])};
    ours_args.insert(ours_args.end(), o.args.begin(), o.args.end());
    ours_args.insert(ours_args.end(), extra_args.begin(), extra_args.end());
    const std::string ours = gsort_in_process(ours_args, inputs, out);
    if (ours != gnu.out) {
      LineOptionsCase shown = o;
      shown.args = ours_args;
      return compare(shown, described, gnu.out, ours, seed, i);
    }
  }
  return {};
}

namespace {

// One case through both programs: GNU sort with its arguments, gsort with
// them and extra_args.
struct BothRuns {
  std::vector<std::string> gnu_argv, ours_argv;
  ProcessResult gnu, ours;
};

BothRuns run_both(const LineOptionsCase& o, const ProcessOptions& p, const std::vector<std::string>& extra_args) {
  BothRuns r;
  r.gnu_argv = {kGnuSort};
  r.ours_argv = {GSORT_BINARY};
  r.gnu_argv.insert(r.gnu_argv.end(), o.args.begin(), o.args.end());
  r.ours_argv.insert(r.ours_argv.end(), o.args.begin(), o.args.end());
  r.ours_argv.insert(r.ours_argv.end(), extra_args.begin(), extra_args.end());
  r.gnu = run_process(r.gnu_argv, p);
  r.ours = run_process(r.ours_argv, p);
  return r;
}

}  // namespace

DiffOutcome run_gnu_differential_cli(uint64_t seed, int cases, size_t max_lines,
                                     const std::vector<std::string>& extra_args) {
  Rng rng(seed);
  for (int i = 0; i < cases; ++i) {
    const LineOptionsCase o = comparable_line_options(rng);
    ProcessOptions p = c_locale();
    p.stdin_kind = StdinKind::kPipe;
    p.stdin_data = comparable_line_input(rng, o, max_lines);
    const BothRuns both = run_both(o, p, extra_args);
    const ProcessResult &gnu = both.gnu, &ours = both.ours;
    if (ours.exit_code != 0) return {false, "gsort " + join_args(o.args) + ": " + ours.status() + ": " + ours.err};
    const DiffOutcome d = compare(o, p.stdin_data, gnu.out, ours.out, seed, i);
    if (!d.same) return d;
  }
  return {};
}

namespace {

// The input with some of its letters changed to the locale's: accented
// ones, upper and lower case, apostrophes and hyphens among them.
std::string with_locale_letters(Rng& rng, const std::string& data, bool utf8) {
  static const std::vector<std::string> kUtf8 = {"\xC3\xA9", "\xC3\x89", "\xC3\xA5", "\xC3\x85", "\xC3\xA4",
                                                 "\xC3\xB6", "\xC3\x96", "\xC4\xB1", "\xC4\xB0", "\xC3\x9F",
                                                 "\xC5\x93", "\xC3\xB1", "\xC3\xBC", "'", "-", "e", "E"};
  static const std::vector<std::string> kLatin1 = {"\xE9", "\xC9", "\xE5", "\xC5", "\xE4", "\xF6",
                                                   "\xD6", "\xDF", "\xF1", "\xFC", "'", "-", "e", "E"};
  const std::vector<std::string>& letters = utf8 ? kUtf8 : kLatin1;
  std::string out;
  for (const char c : data) {
    const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (letter && rng.chance(15)) out += letters[rng.below(letters.size())];
    else out += c;
  }
  return out;
}

bool refused_for_the_locale(const ProcessResult& r) {
  return r.exit_code == 2 && r.out.empty() && r.err.find("is not supported yet") != std::string::npos &&
         std::count(r.err.begin(), r.err.end(), '\n') == 1;
}

}  // namespace

DiffOutcome run_gnu_locale_differential(const std::string& locale, uint64_t seed, int cases, size_t max_lines,
                                        const std::vector<std::string>& extra_args, LocaleTally* tally) {
  Rng rng(seed);
  const bool utf8 = locale.find("UTF-8") != std::string::npos || locale.find("utf8") != std::string::npos;
  for (int i = 0; i < cases; ++i) {
    LineOptionsCase o = comparable_line_options(rng);
    const bool debug = rng.chance(15);  // the keys underlined in the columns the locale's characters take
    if (debug) o.args.push_back("--debug");
    ProcessOptions p;
    p.env = {"LC_ALL=" + locale, "LANGUAGE=en"};  // sort's messages untranslated, as gsort's
    p.stdin_kind = StdinKind::kPipe;
    p.stdin_data = with_locale_letters(rng, comparable_line_input(rng, o, max_lines), utf8);
    const BothRuns both = run_both(o, p, extra_args);
    const ProcessResult &gnu = both.gnu, &ours = both.ours;
    const std::string what = "LC_ALL=" + locale + " gsort " + join_args(o.args);
    if (refused_for_the_locale(ours)) {
      ++tally->refused;
      continue;
    }
    if (ours.exit_code != 0) return {false, what + ": " + ours.status() + ": " + ours.err};
    const DiffOutcome d = compare(o, p.stdin_data, gnu.out, ours.out, seed, i);
    if (!d.same) {
      DiffOutcome named = d;
      named.what = what + "\n" + d.what;
      return named;
    }
    ++tally->compared;
    if (debug) continue;  // sort refuses -c --debug
    // -c agrees with sort -c on the input, and finds GNU's output sorted.
    std::vector<std::string> check_gnu = both.gnu_argv, check_ours = both.ours_argv;
    check_gnu.push_back("-c"), check_ours.push_back("-c");
    const ProcessResult gnu_check = run_process(check_gnu, p);
    const ProcessResult ours_check = run_process(check_ours, p);
    if (gnu_check.exit_code != ours_check.exit_code) {
      return {false, what + " -c on the input: sort exits " + std::to_string(gnu_check.exit_code) + ", gsort " +
                         ours_check.status() + ": " + ours_check.err};
    }
    ProcessOptions sorted = p;
    sorted.stdin_data = gnu.out;
    const ProcessResult ours_sorted = run_process(check_ours, sorted);
    if (ours_sorted.exit_code != 0) return {false, what + " -c on sort's output: " + ours_sorted.status() + ": " + ours_sorted.err};
  }
  return {};
}

namespace {

// GNU sort's other spellings of some short options: long names cut to
// a prefix that sort takes (and gsort's own options share).
std::vector<std::string> long_spellings(Rng& rng, const std::vector<std::string>& args) {
  std::vector<std::string> out;
  for (const std::string& a : args) {
    if (a == "-s" && rng.chance(50)) out.push_back("--st");
    else if (a == "-r" && rng.chance(50)) out.push_back("--rev");
    else if (a == "-u" && rng.chance(50)) out.push_back("--un");
    else if (a == "-z" && rng.chance(50)) out.push_back("--zero");
    else out.push_back(a);
  }
  return out;
}

// One of sort's interface options beside the orderings, for `o`.
std::vector<std::string> interface_args(Rng& rng, const LineOptionsCase& o) {
  std::vector<std::string> args = long_spellings(rng, o.args);
  static const std::vector<std::vector<std::string>> kExtras = {
      {"--check=quiet"}, {"--check=silent"}, {"--check=diagnose-first"}, {"--ch=q"}, {"-y"}, {"-y", "10"},
      {"--buffer-size=1M"}, {"--bu=2M"}, {"-S", "0"}, {"--parallel=100000"}, {"--p=2"}, {"--debug"}};
  const std::vector<std::string>& extra = kExtras[rng.below(kExtras.size())];
  args.insert(rng.chance(50) ? args.begin() : args.end(), extra.begin(), extra.end());
  // A key as sort's obsolete +POS1 -POS2: +1 -2 is -k 2,2.
  if (rng.chance(20)) args.insert(args.end(), {"+1", "-2"});
  return args;
}

// GNU sort's messages in gsort's name, and in the newest release's words:
// coreutils 9.1 to 9.6 put "note " before "numbers use '.' as a decimal
// point in this locale" (gsort follows 9.7 and later).
std::string as_gsort(const std::string& err) {
  std::string out;
  for (size_t at = 0; at < err.size();) {
    const size_t end = std::min(err.find('\n', at), err.size());
    std::string line = err.substr(at, end - at);
    const std::string program = std::string(kGnuSort) + ": ";
    const std::string older_note = program + "note numbers use ";
    if (line.rfind(older_note, 0) == 0) line.erase(program.size(), std::string("note ").size());
    out += line.rfind(program, 0) == 0 ? "gsort: " + line.substr(program.size()) : line;
    out += end < err.size() ? "\n" : "";
    at = end + 1;
  }
  return out;
}

}  // namespace

DiffOutcome run_gnu_interface_differential(uint64_t seed, int cases, size_t max_lines) {
  Rng rng(seed);
  for (int i = 0; i < cases; ++i) {
    LineOptionsCase o = comparable_line_options(rng);
    ProcessOptions p = c_locale();
    p.stdin_kind = StdinKind::kPipe;
    p.stdin_data = comparable_line_input(rng, o, max_lines);
    o.args = interface_args(rng, o);
    std::vector<std::string> gnu_argv = {kGnuSort}, ours_argv = {GSORT_BINARY};
    gnu_argv.insert(gnu_argv.end(), o.args.begin(), o.args.end());
    ours_argv.insert(ours_argv.end(), o.args.begin(), o.args.end());
    const ProcessResult gnu = run_process(gnu_argv, p);
    const ProcessResult ours = run_process(ours_argv, p);
    const bool debug = std::find(o.args.begin(), o.args.end(), "--debug") != o.args.end();
    const std::string gnu_err = as_gsort(gnu.err);
    if (ours.exit_code != gnu.exit_code || (debug ? ours.err != gnu_err : ours.err.empty() != gnu.err.empty())) {
      return {false, "case " + std::to_string(i) + " of seed " + std::to_string(seed) + ": sort " + join_args(o.args) +
                         ": GNU " + gnu.status() + ", stderr:\n" + gnu_err + "gsort " + ours.status() +
                         ", stderr:\n" + ours.err + "--- input ---\n" + printable(p.stdin_data)};
    }
    const DiffOutcome d = compare(o, p.stdin_data, gnu.out, ours.out, seed, i);
    if (!d.same) return d;
  }
  return {};
}

}  // namespace gsort_test
