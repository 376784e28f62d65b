// Typed errors. Library code throws; main() alone maps them to exit codes
// (see exit_codes.h), so temp-file cleanup always runs on the way out.
#pragma once

#include <stdexcept>
#include <string>

namespace gsort {

// Anything that makes gsort fail: exit code 2. The message is one line,
// printed after "gsort: ".
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The command line is wrong (unknown option, bad key spec, bad size).
class UsageError : public Error {
 public:
  using Error::Error;
};

// An input's content is unusable (size not a multiple of the record size,
// an unsorted input to --merge, a corrupted run file).
class DataError : public Error {
 public:
  using Error::Error;
};

// A system call on a file failed; the message names the path and strerror.
class IoError : public Error {
 public:
  using Error::Error;
};

// The process was asked to stop (SIGINT/SIGTERM) while work was under way.
class Interrupted : public Error {
 public:
  using Error::Error;
};

}  // namespace gsort
