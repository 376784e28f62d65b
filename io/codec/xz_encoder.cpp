#include "io/codec/xz_encoder.h"

#include <lzma.h>

#include <algorithm>
#include <boost/iostreams/filter/lzma.hpp>
#include <string>

#include "io/codec/boost_devices.h"
#include "src/core/errors.h"

namespace gsort {
namespace {

namespace bio = boost::iostreams;

constexpr std::streamsize kOutputBufferBytes = 1 << 20;  // compressed bytes per write()

// liblzma's threads: those asked for, but at most one per hardware thread
// (--parallel may ask for more; an xz thread is all compute) and no more
// than a quarter of physical memory holds, as xz -T0 limits itself. Each
// thread holds about 100 MiB at level 6; the output does not depend on it.
unsigned xz_threads(int level, unsigned asked) {
  unsigned threads = std::max(1u, asked);
  if (const uint32_t cpus = lzma_cputhreads(); cpus > 0) threads = std::min(threads, cpus);
  lzma_mt one{};
  one.threads = 1;
  one.preset = static_cast<uint32_t>(level);
  one.check = LZMA_CHECK_CRC32;
  const uint64_t per_thread = lzma_stream_encoder_mt_memusage(&one);
  const uint64_t quarter = lzma_physmem() / 4;
  if (per_thread != UINT64_MAX && per_thread > 0 && quarter > 0) {
    threads = static_cast<unsigned>(std::clamp<uint64_t>(quarter / per_thread, 1, threads));
  }
  return threads;
}

class XzEncoder final : public OutputEncoder {
 public:
  XzEncoder(File& file, int level, unsigned threads)
      : sink_(file),
        filter_(bio::lzma_params(static_cast<uint32_t>(level), xz_threads(level, threads)), kOutputBufferBytes) {}

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
