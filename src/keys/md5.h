// MD5 (RFC 1321), for -R: GNU sort orders random keys by the MD5 digest of
// 16 seed bytes followed by the key. Not for security.
#pragma once

#include <array>
#include <cstdint>

namespace gsort {

using Md5Digest = std::array<uint8_t, 16>;

class Md5 {
 public:
  Md5();
  void update(const uint8_t* data, uint64_t len);
  // The digest of everything given; the object is spent after.
  Md5Digest finish();

 private:
  void block(const uint8_t* p);
  uint32_t state_[4];
  uint8_t pending_[64];
  uint64_t pending_len_ = 0;
  uint64_t total_ = 0;
};

}  // namespace gsort
