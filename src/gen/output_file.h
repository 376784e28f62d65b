// The generator's output: a file or standard output written with write(2).
// Short writes are looped, and every failure becomes an IoError that reads
// "<path>: <strerror>".
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace gsort::gen {

class OutputFile {
 public:
  explicit OutputFile(const std::string& path);  // "-" is standard output
  ~OutputFile();                                 // closes quietly if close() was not called
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  void write(const uint8_t* data, size_t size);
  // Reports what close(2) reports: some file systems only fail a write there.
  void close();

 private:
  [[noreturn]] void fail(int error) const;

  std::string path_;
  int fd_ = -1;
  bool owns_fd_ = false;
};

}  // namespace gsort::gen
