#include "tests/support/zstd_decode.h"

#include <zstd.h>

#include <memory>
#include <stdexcept>
#include <vector>

namespace gsort_test {

std::string zstd_decode(const std::string& packed) {
  const std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx*)> dctx(ZSTD_createDCtx(), ZSTD_freeDCtx);
  if (!dctx) throw std::runtime_error("zstd: no decoder");
  std::vector<char> buf(ZSTD_DStreamOutSize());
  std::string out;
  ZSTD_inBuffer in{packed.data(), packed.size(), 0};
  size_t left = 1;  // 0 once a frame ended with no more to flush
  while (in.pos < in.size || left != 0) {
    ZSTD_outBuffer o{buf.data(), buf.size(), 0};
    const size_t before = in.pos;
    left = ZSTD_decompressStream(dctx.get(), &o, &in);
    if (ZSTD_isError(left)) throw std::runtime_error(std::string("zstd: ") + ZSTD_getErrorName(left));
    out.append(buf.data(), o.pos);
    if (in.pos == before && o.pos == 0 && left != 0) throw std::runtime_error("zstd: the stream is truncated");
  }
  return out;
}

}  // namespace gsort_test
