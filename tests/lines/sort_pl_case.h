// One case of coreutils' tests/sort/sort.pl as the ports run it: the
// arguments, standard input, and the expected output, exit status and
// standard error.
#pragma once

#include <string>
#include <vector>

namespace gsort_test {

struct SortPlCase {
  const char* name;
  std::vector<std::string> args;
  std::string in, out;
  int exit_code = 0;
  std::string err;
};

}  // namespace gsort_test
