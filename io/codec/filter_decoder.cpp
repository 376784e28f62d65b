#include "io/codec/filter_decoder.h"

#include <bzlib.h>
#include <lzma.h>

#include <boost/iostreams/filter/bzip2.hpp>
#include <boost/iostreams/filter/lzma.hpp>
#include <string>

#include "io/codec/boost_devices.h"
#include "src/core/errors.h"

namespace gsort {
namespace {

namespace bio = boost::iostreams;

// Compressed bytes each read of the file asks for (as for zstd inputs).
constexpr std::streamsize kInputBufferBytes = 256 << 10;

// What went wrong, from a Boost filter's error: the data ended too soon, or
// it is not what the format allows.
struct Failure {
  bool truncated;
  std::string detail;  // for corrupted data
};

Failure explain_bzip2(const bio::bzip2_error& e) {
  switch (e.error()) {
    case BZ_UNEXPECTED_EOF: return {true, ""};
    case BZ_DATA_ERROR: return {false, "damaged block or CRC mismatch"};
    case BZ_DATA_ERROR_MAGIC: return {false, "no bzip2 stream where one should start"};
    default: return {false, "libbz2 error " + std::to_string(e.error())};
  }
}

Failure explain_xz(const bio::lzma_error& e) {
  switch (e.error()) {
    case LZMA_BUF_ERROR: return {true, ""};
    case LZMA_DATA_ERROR: return {false, "damaged data or check mismatch"};
    case LZMA_FORMAT_ERROR: return {false, "no xz stream where one should start"};
    case LZMA_OPTIONS_ERROR: return {false, "options this liblzma does not support"};
    case LZMA_MEMLIMIT_ERROR: return {false, "it needs more than 100 MiB of memory to decode"};
    default: return {false, "liblzma error " + std::to_string(e.error())};
  }
}

// One input decoded by a Boost decompressor (a symmetric filter).
template <typename Filter>
class FilterDecoder final : public InputDecoder {
 public:
  FilterDecoder(CompressionFormat format, File& file, const uint8_t* peeked, size_t peeked_bytes, const Filter& filter)
      : format_(format), name_(file.display_name()), source_(file, peeked, peeked_bytes), filter_(filter) {}

  size_t read(uint8_t* out, size_t n) override {
    size_t got = 0;
    unsigned idle = 0;  // reads that gave nothing: a filter that makes no progress must not hang
    while (got < n && !ended_) {
      std::streamsize r = 0;
      try {
        r = filter_.read(source_, reinterpret_cast<char*>(out + got), static_cast<std::streamsize>(n - got));
      } catch (const std::ios_base::failure& e) {  // every Boost filter error is one
        fail(e);
      }
      if (r < 0) {
        ended_ = true;
      } else if (r == 0 && ++idle > 64) {
        fail_with({false, "the decoder makes no progress"});
      } else {
        got += static_cast<size_t>(r);
      }
    }
    return got;
  }

  uint64_t compressed_bytes() const override { return source_.bytes(); }

 private:
  [[noreturn]] void fail(const std::ios_base::failure& e) const {
    if (const auto* bz = dynamic_cast<const bio::bzip2_error*>(&e)) fail_with(explain_bzip2(*bz));
    if (const auto* xz = dynamic_cast<const bio::lzma_error*>(&e)) fail_with(explain_xz(*xz));
    fail_with({false, e.what()});
  }

  [[noreturn]] void fail_with(const Failure& f) const {
    const std::string format = format_name(format_);
    if (f.truncated) {
      throw DataError(name_ + ": truncated " + format + " data (the input ends inside a stream, after " +
                      std::to_string(source_.bytes()) + " compressed bytes)");
    }
    throw DataError(name_ + ": corrupted " + format + " data (" + f.detail + ", within the first " +
                    std::to_string(source_.bytes()) + " compressed bytes)");
  }

  CompressionFormat format_;
  std::string name_;
  FileSource source_;
  Filter filter_;
  bool ended_ = false;
};

template <typename Filter>
std::unique_ptr<InputDecoder> decoder(CompressionFormat format, File& file, const uint8_t* peeked, size_t n,
                                      const Filter& filter) {
  return std::make_unique<FilterDecoder<Filter>>(format, file, peeked, n, filter);
}

}  // namespace

std::unique_ptr<InputDecoder> make_filter_decoder(CompressionFormat format, File& file, const uint8_t* peeked,
                                                  size_t peeked_bytes) {
  switch (format) {
    case CompressionFormat::kBzip2:
      return decoder(format, file, peeked, peeked_bytes,
                     bio::bzip2_decompressor(bio::bzip2::default_small, kInputBufferBytes));
    case CompressionFormat::kXz:
      return decoder(format, file, peeked, peeked_bytes, bio::lzma_decompressor(bio::lzma_params(), kInputBufferBytes));
    default:
      throw Error(std::string("no Boost.Iostreams decoder for ") + format_name(format));
  }
}

}  // namespace gsort
