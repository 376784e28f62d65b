#include "tests/support/mapped_input_checks.h"

#include <fcntl.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "tests/support/resident_pages.h"

namespace gsort_test {

bool drop_from_page_cache(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  EXPECT_GE(fd, 0) << path;
  if (fd < 0) return false;
  EXPECT_EQ(::fdatasync(fd), 0) << path;
  EXPECT_EQ(::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), 0) << path;
  const uint64_t cached = cached_file_pages(fd, 0, static_cast<uint64_t>(::lseek(fd, 0, SEEK_END)));
  ::close(fd);
  return cached == 0;
}

bool bring_into_page_cache(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  EXPECT_GE(fd, 0) << path;
  if (fd < 0) return false;
  const uint64_t size = static_cast<uint64_t>(::lseek(fd, 0, SEEK_END));
  const uint64_t page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  const uint64_t pages = (size + page - 1) / page;
  bool all = false;
  std::vector<char> buffer(1 << 20);
  for (int attempt = 0; attempt < 3 && !all; ++attempt) {
    off_t at = 0;
    for (ssize_t got; (got = ::pread(fd, buffer.data(), buffer.size(), at)) > 0;) at += got;
    all = cached_file_pages(fd, 0, size) == pages;
  }
  ::close(fd);
  return all;
}

void expect_cut_short_once_mapped_fails(const std::vector<std::string>& args, const std::string& input,
                                        const std::string& output) {
  std::vector<std::string> argv = {GSORT_HOOKS_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  argv.insert(argv.end(), {input, "-o", output});
  ProcessOptions options = c_locale();
  options.env.push_back("GSORT_TEST_TRUNCATE_INPUT=" + input + ":4096:mapped");
  const ProcessResult r = run_process(argv, options);
  EXPECT_EQ(r.status(), "exit 2") << r.err;
  EXPECT_NE(r.err.find("an input file was cut short while gsort was reading it"), std::string::npos) << r.err;
  EXPECT_EQ(::access(output.c_str(), F_OK), -1) << "no output";
}

}  // namespace gsort_test
