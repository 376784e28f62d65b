// The exceptions gsort throws, as a library and inside the program: every
// failure is a gsort::Error (exit code 2 on the command line), and its type
// says what kind of failure it was. The message is one line.
#pragma once

#include <stdexcept>
#include <string>

namespace gsort {

// Anything that makes a sort fail.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The request is wrong: an unknown option, a bad key spec or size, a key
// outside the record.
class UsageError : public Error {
 public:
  using Error::Error;
};

// An input's content is unusable: a size that is not a multiple of the
// record size, an unsorted input to a merge, a corrupted run or frame.
class DataError : public Error {
 public:
  using Error::Error;
};

// A system call on a file failed; the message names the path and the reason.
class IoError : public Error {
 public:
  using Error::Error;
};

// The GPU failed, or cannot be used for what was asked (--backend gpu
// without a usable GPU, too little device memory).
class DeviceError : public Error {
 public:
  using Error::Error;
};

// The process was asked to stop (SIGINT, SIGTERM) while work was under way.
class Interrupted : public Error {
 public:
  using Error::Error;
};

}  // namespace gsort
