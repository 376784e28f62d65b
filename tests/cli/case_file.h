// CLI cases as text (tests/cli/cases/*.case): each case names the files it
// needs, the command it runs, the one stderr line it expects and the exit
// code. cli_cases_test.cpp runs them. The format is described at the top
// of tests/cli/cases/README.
#pragma once

#include <string>
#include <vector>

namespace gsort_test {

// A file the case writes into its scratch directory before the run.
struct CaseFile {
  std::string name;
  size_t size = 0;
  char fill = 'x';      // the byte it is made of, unless random
  bool random = false;  // random bytes (a fixed seed) instead of fill
  bool unreadable = false;  // chmod 000 afterwards; the case skips as root
};

struct CliCase {
  std::string name;   // unique over all case files: a test name
  std::string where;  // "file.case:LINE", for messages
  std::vector<CaseFile> files;
  std::string stdin_data;          // piped to stdin when not empty
  std::vector<std::string> command;  // program (gsort or gsort-gen), then its arguments
  std::string stderr_line;          // exact, without the last newline (lines joined by one) ...
  std::string stderr_pattern;       // ... or an ECMAScript regex the line must match whole
  int exit_code = -1;
};

// Parses one case file's text. Throws std::runtime_error naming where, on a
// malformed line or an incomplete case.
std::vector<CliCase> parse_cli_cases(const std::string& text, const std::string& file_name);

// Every case of every *.case file in dir, in file-name order. Throws on a
// malformed file or a name used twice.
std::vector<CliCase> load_cli_cases(const std::string& dir);

// text with {dir}, {in}, {out} and {tmp} replaced: the case's scratch
// directory, its prepared valid input, its destination and its temp dir.
std::string expand_placeholders(const std::string& text, const std::string& dir);

}  // namespace gsort_test
