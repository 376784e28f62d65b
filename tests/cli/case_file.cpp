#include "tests/cli/case_file.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

namespace gsort_test {

namespace {

std::vector<std::string> split_words(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

bool is_identifier(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// "NAME SIZE FILL": FILL is one character or the word "random".
CaseFile parse_file_line(const std::string& value, const std::string& where) {
  const std::vector<std::string> w = split_words(value);
  if (w.size() != 3 || (w[2].size() != 1 && w[2] != "random")) {
    throw std::runtime_error(where + ": want 'file: NAME SIZE CHAR' or 'file: NAME SIZE random'");
  }
  CaseFile f;
  f.name = w[0];
  f.size = std::stoull(w[1]);
  f.random = w[2] == "random";
  if (!f.random) f.fill = w[2][0];
  return f;
}

void check_complete(const CliCase& c) {
  if (c.command.empty()) throw std::runtime_error(c.where + ": case " + c.name + " has no 'run:'");
  if (c.stderr_line.empty() == c.stderr_pattern.empty()) {
    throw std::runtime_error(c.where + ": case " + c.name + " wants exactly one of 'stderr:' and 'stderr-matches:'");
  }
  if (c.exit_code < 0) throw std::runtime_error(c.where + ": case " + c.name + " has no 'exit:'");
}

}  // namespace

std::vector<CliCase> parse_cli_cases(const std::string& text, const std::string& file_name) {
  std::vector<CliCase> cases;
  std::istringstream in(text);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const std::string where = file_name + ":" + std::to_string(number);
    const size_t first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line[first] == '#') continue;
    const size_t colon = line.find(':', first);
    if (colon == std::string::npos) throw std::runtime_error(where + ": want 'key: value'");
    const std::string key = line.substr(first, colon - first);
    const size_t value_at = line.find_first_not_of(' ', colon + 1);
    const std::string value = value_at == std::string::npos ? "" : line.substr(value_at);
    if (key == "case") {
      if (!cases.empty()) check_complete(cases.back());
      if (!is_identifier(value)) throw std::runtime_error(where + ": a case name is letters, digits and _");
      cases.emplace_back();
      cases.back().name = value;
      cases.back().where = where;
      continue;
    }
    if (cases.empty()) throw std::runtime_error(where + ": '" + key + ":' before the first 'case:'");
    CliCase& c = cases.back();
    if (key == "file") {
      c.files.push_back(parse_file_line(value, where));
    } else if (key == "unreadable") {
      auto it = std::find_if(c.files.begin(), c.files.end(), [&](const CaseFile& f) { return f.name == value; });
      if (it == c.files.end()) throw std::runtime_error(where + ": no 'file: " + value + "' before it");
      it->unreadable = true;
    } else if (key == "stdin") {
      const CaseFile f = parse_file_line("stdin " + value, where);
      c.stdin_data = std::string(f.size, f.fill);
    } else if (key == "run") {
      c.command = split_words(value);
      // '' is an empty argument (as a shell would pass it).
      for (std::string& word : c.command) {
        if (word == "''") word.clear();
      }
    } else if (key == "stderr") {
      // Each stderr: line is the next line of the message (sort's
      // --batch-size refusals take two), blanks after the first its own.
      const std::string shown = line.compare(colon, 2, ": ") == 0 ? line.substr(colon + 2) : value;
      c.stderr_line += (c.stderr_line.empty() ? "" : "\n") + shown;
    } else if (key == "stderr-matches") {
      c.stderr_pattern = value;
    } else if (key == "exit") {
      c.exit_code = std::stoi(value);
    } else {
      throw std::runtime_error(where + ": unknown key '" + key + "'");
    }
  }
  if (!cases.empty()) check_complete(cases.back());
  return cases;
}

std::vector<CliCase> load_cli_cases(const std::string& dir) {
  std::vector<std::filesystem::path> paths;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".case") paths.push_back(entry.path());
  }
  std::sort(paths.begin(), paths.end());
  std::vector<CliCase> all;
  std::set<std::string> names;
  for (const auto& path : paths) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    for (CliCase& c : parse_cli_cases(text.str(), path.filename().string())) {
      if (!names.insert(c.name).second) throw std::runtime_error(c.where + ": case name " + c.name + " used twice");
      all.push_back(std::move(c));
    }
  }
  if (all.empty()) throw std::runtime_error("no cases in " + dir);
  return all;
}

std::string expand_placeholders(const std::string& text, const std::string& dir) {
  const std::pair<const char*, std::string> names[] = {
      {"{dir}", dir}, {"{in}", dir + "/good.bin"}, {"{out}", dir + "/out/result.bin"}, {"{tmp}", dir + "/tmp"}};
  std::string s = text;
  for (const auto& [placeholder, value] : names) {
    for (size_t at = s.find(placeholder); at != std::string::npos; at = s.find(placeholder, at + value.size())) {
      s.replace(at, std::string(placeholder).size(), value);
    }
  }
  return s;
}

}  // namespace gsort_test
