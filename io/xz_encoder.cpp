#include "io/xz_encoder.h"

#include <boost/iostreams/filter/lzma.hpp>
#include <string>

#include "io/boost_devices.h"
#include "src/core/errors.h"

namespace gsort {
namespace {

namespace bio = boost::iostreams;

constexpr std::streamsize kOutputBufferBytes = 1 << 20;  // compressed bytes per write()

class XzEncoder final : public OutputEncoder {
 public:
  XzEncoder(File& file, int level, unsigned threads)
      : sink_(file),
        filter_(bio::lzma_params(static_cast<uint32_t>(level), std::max(1u, threads)), kOutputBufferBytes) {}

  void write(const uint8_t* data, size_t n) override {
    const char* p = reinterpret_cast<const char*>(data);
    while (n > 0) {
      const std::streamsize took = guarded([&] { return filter_.write(sink_, p, static_cast<std::streamsize>(n)); });
      p += took;
      n -= static_cast<size_t>(took);
    }
  }

  void finish() override {
    if (finished_) return;
    guarded([&] {
      filter_.close(sink_, std::ios_base::out);
      return std::streamsize{0};
    });
    finished_ = true;
  }

  uint64_t bytes_out() const override { return sink_.bytes(); }

 private:
  template <typename F>
  std::streamsize guarded(F f) {
    try {
      return f();
    } catch (const std::ios_base::failure& e) {  // liblzma refused (an error of the file is an IoError)
      throw Error(std::string("xz compression failed: ") + e.what());
    }
  }

  FileSink sink_;
  bio::lzma_compressor filter_;
  bool finished_ = false;
};

}  // namespace

std::unique_ptr<OutputEncoder> make_xz_encoder(File& file, int level, unsigned threads) {
  return std::make_unique<XzEncoder>(file, level, threads);
}

}  // namespace gsort
