#include "io/codec/gzip_decoder.h"

#include <zlib.h>

#include <cstring>
#include <string>
#include <vector>

#include "io/codec/boost_devices.h"
#include "src/core/errors.h"

namespace gsort {
namespace {

// Compressed bytes each read of the file asks for (as for the other formats).
constexpr size_t kInputBufferBytes = 256 << 10;
constexpr int kGzipOnly = 16 + MAX_WBITS;  // inflate takes a gzip header, and checks the trailer

class GzipDecoder final : public InputDecoder {
 public:
  GzipDecoder(File& file, const uint8_t* peeked, size_t peeked_bytes)
      : name_(file.display_name()), source_(file, peeked, peeked_bytes), in_(kInputBufferBytes) {
    std::memset(&z_, 0, sizeof z_);
    if (inflateInit2(&z_, kGzipOnly) != Z_OK) throw Error("cannot start zlib's inflate: out of memory");
  }
  ~GzipDecoder() override { inflateEnd(&z_); }
  GzipDecoder(const GzipDecoder&) = delete;
  GzipDecoder& operator=(const GzipDecoder&) = delete;

  size_t read(uint8_t* out, size_t n) override {
    z_.next_out = out;
    z_.avail_out = 0;
    size_t got = 0;
    while (got < n && !ended_) {
      if (z_.avail_in == 0 && !refill()) {
        if (in_member_) fail("");  // the input ends inside a member
        ended_ = true;
        break;
      }
      if (!in_member_) start_member();
      const size_t ask = std::min<size_t>(n - got, 1u << 30);
      z_.next_out = out + got;
      z_.avail_out = static_cast<uInt>(ask);
      const int rc = inflate(&z_, Z_NO_FLUSH);
      got += ask - z_.avail_out;
      if (rc == Z_STREAM_END) {
        in_member_ = false;
        ++members_done_;
      } else if (rc == Z_BUF_ERROR) {
        continue;  // needs more input: refilled above, or the end is reached
      } else if (rc != Z_OK) {
        fail(explain(rc));
      }
    }
    return got;
  }

  uint64_t compressed_bytes() const override { return source_.bytes(); }

 private:
  bool refill() {
    if (source_ended_) return false;
    const std::streamsize r = source_.read(reinterpret_cast<char*>(in_.data()), static_cast<std::streamsize>(in_.size()));
    if (r <= 0) {
      source_ended_ = true;
      return false;
    }
    z_.next_in = in_.data();
    z_.avail_in = static_cast<uInt>(r);
    return true;
  }

  // The next member must start where the last one ended.
  void start_member() {
    if (started_ && z_.avail_in >= 1 && z_.next_in[0] != 0x1f) {
      fail("no gzip member where the next one should start");
    }
    if (started_ && inflateReset(&z_) != Z_OK) fail("invalid deflate data");
    started_ = true;
    in_member_ = true;
  }

  std::string explain(int rc) const {
    const std::string msg = z_.msg ? z_.msg : "";
    if (rc == Z_MEM_ERROR) return "out of memory";
    if (msg == "incorrect data check") return "CRC-32 mismatch";
    if (msg == "incorrect length check") return "length mismatch";
    if (msg == "unknown compression method") return "unknown compression method";
    if (msg == "incorrect header check" || msg == "unknown header flags set" || msg == "header crc mismatch") {
      return members_done_ > 0 ? "no gzip member where the next one should start" : "invalid gzip header";
    }
    return "invalid deflate data";
  }

  // detail empty: truncated.
  [[noreturn]] void fail(const std::string& detail) const {
    if (detail.empty()) {
      throw DataError(name_ + ": truncated gzip data (the input ends inside a member, after " +
                      std::to_string(source_.bytes()) + " compressed bytes)");
    }
    throw DataError(name_ + ": corrupted gzip data (" + detail + ", within the first " +
                    std::to_string(source_.bytes()) + " compressed bytes)");
  }

  std::string name_;
  FileSource source_;
  std::vector<uint8_t> in_;
  z_stream z_;
  uint64_t members_done_ = 0;
  bool started_ = false;    // a member has begun
  bool in_member_ = false;  // inside one now
  bool source_ended_ = false;
  bool ended_ = false;
};

}  // namespace

std::unique_ptr<InputDecoder> make_gzip_decoder(File& file, const uint8_t* peeked, size_t peeked_bytes) {
  return std::make_unique<GzipDecoder>(file, peeked, peeked_bytes);
}

}  // namespace gsort
