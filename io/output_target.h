// Where the sorted records go. For a path, they are written to a temporary
// file in the destination's directory and renamed into place by commit(), so
// the destination never holds a partial result and `-o` may name an input.
// Without commit() the temporary file is removed. "-" is standard output.
#pragma once

#include <string>

#include "io/file.h"

namespace gsort {

class OutputTarget {
 public:
  // Creates the temporary file now, so that an unwritable destination fails
  // before any work is done.
  explicit OutputTarget(const std::string& destination);
  ~OutputTarget();
  OutputTarget(const OutputTarget&) = delete;
  OutputTarget& operator=(const OutputTarget&) = delete;

  File& file() { return file_; }
  bool is_stdout() const { return destination_ == "-"; }
  const std::string& destination() const { return destination_; }

  // Closes the file and renames it over the destination.
  void commit();

 private:
  std::string destination_;
  std::string temp_path_;
  int slot_ = -1;
  File file_;
  bool committed_ = false;
};

}  // namespace gsort
