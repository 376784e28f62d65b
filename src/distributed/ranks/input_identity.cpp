#include "src/distributed/ranks/input_identity.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <vector>

#include "io/file/checksum.h"
#include "src/core/errors.h"

namespace gsort {
namespace {

// Where sampled block `i` begins in a file of `size` bytes, larger than all
// the samples together: span * i / (kInputSamples - 1), without overflow.
uint64_t sample_offset(uint64_t size, uint64_t i) {
  const uint64_t span = size - kInputSampleBytes, steps = kInputSamples - 1;
  return span / steps * i + span % steps * i / steps;
}

}  // namespace

InputIdentity identify_input(const std::string& name, File& file) {
  struct stat st;
  if (::fstat(file.fd(), &st) != 0) throw IoError("cannot stat " + describe_errno(name, errno));
  InputIdentity id;
  id.name = name;
  id.size = static_cast<uint64_t>(st.st_size);
  id.modified_s = static_cast<int64_t>(st.st_mtim.tv_sec);
  id.device = static_cast<uint64_t>(st.st_dev);
  id.inode = static_cast<uint64_t>(st.st_ino);
  std::vector<uint8_t> block(kInputSampleBytes);
  StreamHash hash;
  const auto take = [&](uint64_t offset, uint64_t bytes) {
    if (file.pread_full(block.data(), bytes, offset) != bytes) {
      throw DataError(name + ": the file shrank while it was read");
    }
    hash.update(block.data(), bytes);
  };
  if (id.size <= kInputSamples * kInputSampleBytes) {
    for (uint64_t at = 0; at < id.size; at += kInputSampleBytes) take(at, std::min(kInputSampleBytes, id.size - at));
  } else {
    for (uint64_t i = 0; i < kInputSamples; ++i) take(sample_offset(id.size, i), kInputSampleBytes);
  }
  id.sampled_hash = hash.digest();
  return id;
}

}  // namespace gsort
