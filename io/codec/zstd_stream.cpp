#include "io/codec/zstd_stream.h"

#include <zstd.h>

#include <cstring>
#include <new>

#include "src/core/errors.h"

namespace gsort {
namespace {

constexpr size_t kInputBufferBytes = 256 << 10;   // compressed bytes per read()
constexpr size_t kOutputBufferBytes = 1 << 20;    // compressed bytes per write()

std::string error_name(size_t code) { return ZSTD_getErrorName(code); }

// Sets a compression parameter; a refusal is a bug or an unsupported level.
void set_parameter(ZSTD_CCtx* cctx, ZSTD_cParameter p, int value, const char* what) {
  const size_t r = ZSTD_CCtx_setParameter(cctx, p, value);
  if (ZSTD_isError(r)) throw Error(std::string("zstd: cannot set ") + what + ": " + error_name(r));
}

ZSTD_CCtx* new_cctx() {
  ZSTD_CCtx* c = ZSTD_createCCtx();
  if (c == nullptr) throw std::bad_alloc();
  return c;
}

ZSTD_DCtx* new_dctx() {
  ZSTD_DCtx* d = ZSTD_createDCtx();
  if (d == nullptr) throw std::bad_alloc();
  return d;
}

}  // namespace

bool is_zstd_magic(const uint8_t* bytes, size_t size) {
  if (size < kZstdMagicBytes) return false;
  const uint32_t v = uint32_t{bytes[0]} | uint32_t{bytes[1]} << 8 | uint32_t{bytes[2]} << 16 |
                     uint32_t{bytes[3]} << 24;
  return v == kZstdMagic;
}

void check_zstd_level(int level, const std::string& option) {
  if (level < ZSTD_minCLevel() || level > ZSTD_maxCLevel()) {
    throw UsageError(option + ": zstd level " + std::to_string(level) + " is out of range (" +
                     std::to_string(ZSTD_minCLevel()) + " to " + std::to_string(ZSTD_maxCLevel()) + ")");
  }
}

// ------------------------------------------------------------ input stream

ZstdInputStream::ZstdInputStream(File& file, const uint8_t* peeked, size_t peeked_bytes)
    : file_(file), dctx_(new_dctx()), in_(std::max(kInputBufferBytes, peeked_bytes)) {
  std::memcpy(in_.data(), peeked, peeked_bytes);
  in_end_ = peeked_bytes;
  compressed_bytes_ = peeked_bytes;
}

ZstdInputStream::~ZstdInputStream() { ZSTD_freeDCtx(dctx_); }

size_t ZstdInputStream::read(uint8_t* out, size_t n) {
  ZSTD_outBuffer output{out, n, 0};
  while (output.pos < output.size) {
    if (in_pos_ == in_end_ && !eof_) {
      in_pos_ = 0;
      in_end_ = file_.read_full(in_.data(), in_.size());
      compressed_bytes_ += in_end_;
      if (in_end_ < in_.size()) eof_ = true;
    }
    // At the end of the data between frames: a clean end.
    if (eof_ && in_pos_ == in_end_ && !mid_frame_) break;
    ZSTD_inBuffer input{in_.data(), in_end_, in_pos_};
    const size_t before = output.pos;
    const size_t r = ZSTD_decompressStream(dctx_, &output, &input);
    const bool consumed = input.pos != in_pos_;
    in_pos_ = input.pos;
    if (ZSTD_isError(r)) {
      throw DataError(file_.display_name() + ": corrupted zstd data (" + error_name(r) + ")");
    }
    // r == 0: a frame ended and all of it is flushed; anything else means
    // the frame goes on (more input, or output still held back).
    mid_frame_ = r != 0;
    if (eof_ && in_pos_ == in_end_ && output.pos == before && !consumed) break;
  }
  if (output.pos < output.size && mid_frame_) {
    throw DataError(file_.display_name() + ": truncated zstd data (the input ends inside a frame, after " +
                    std::to_string(compressed_bytes_) + " compressed bytes)");
  }
  return output.pos;
}

// ----------------------------------------------------------- output stream

ZstdOutputStream::ZstdOutputStream(File& file, int level, unsigned workers)
    : file_(file), cctx_(new_cctx()), out_(kOutputBufferBytes) {
  try {
    set_parameter(cctx_, ZSTD_c_compressionLevel, level, "the compression level");
    set_parameter(cctx_, ZSTD_c_checksumFlag, 1, "the checksum flag");
    if (workers > 0) {
      // A libzstd built without threads refuses: then it compresses inline.
      (void)ZSTD_CCtx_setParameter(cctx_, ZSTD_c_nbWorkers, static_cast<int>(workers));
    }
  } catch (...) {
    ZSTD_freeCCtx(cctx_);
    throw;
  }
}

ZstdOutputStream::~ZstdOutputStream() { ZSTD_freeCCtx(cctx_); }

void ZstdOutputStream::drain(const void* data, size_t n, bool end) {
  ZSTD_inBuffer input{data, n, 0};
  for (;;) {
    ZSTD_outBuffer output{out_.data(), out_.size(), 0};
    const size_t r = ZSTD_compressStream2(cctx_, &output, &input, end ? ZSTD_e_end : ZSTD_e_continue);
    if (ZSTD_isError(r)) throw Error("zstd compression failed: " + error_name(r));
    if (output.pos > 0) {
      file_.write_all(out_.data(), output.pos);
      bytes_out_ += output.pos;
    }
    // Done when the input is taken and (at the end) everything is flushed.
    if (end ? r == 0 : input.pos == input.size) break;
  }
}

void ZstdOutputStream::write(const uint8_t* data, size_t n) {
  if (n == 0) return;
  drain(data, n, false);
}

void ZstdOutputStream::finish() {
  if (finished_) return;
  drain(nullptr, 0, true);
  finished_ = true;
}

// ------------------------------------------------------------ whole frames

ZstdCompressor::ZstdCompressor(int level) : cctx_(new_cctx()) {
  try {
    set_parameter(cctx_, ZSTD_c_compressionLevel, level, "the compression level");
    set_parameter(cctx_, ZSTD_c_contentSizeFlag, 1, "the content size flag");
  } catch (...) {
    ZSTD_freeCCtx(cctx_);
    throw;
  }
}

ZstdCompressor::~ZstdCompressor() { ZSTD_freeCCtx(cctx_); }

size_t ZstdCompressor::bound(size_t n) { return ZSTD_compressBound(n); }

size_t ZstdCompressor::compress(void* dst, size_t capacity, const void* src, size_t n) {
  const size_t r = ZSTD_compress2(cctx_, dst, capacity, src, n);
  if (ZSTD_isError(r)) throw Error("zstd compression failed: " + error_name(r));
  return r;
}

ZstdDecompressor::ZstdDecompressor() : dctx_(new_dctx()) {}

ZstdDecompressor::~ZstdDecompressor() { ZSTD_freeDCtx(dctx_); }

bool zstd_frame_content_size(const void* src, size_t n, uint64_t* size) {
  const unsigned long long content = ZSTD_getFrameContentSize(src, n);
  if (content == ZSTD_CONTENTSIZE_ERROR || content == ZSTD_CONTENTSIZE_UNKNOWN) return false;
  *size = content;
  return true;
}

bool ZstdDecompressor::decompress(void* dst, size_t expected, const void* src, size_t n, std::string* error) {
  // The frame must say it holds exactly `expected` bytes before any of it
  // is decoded, so a damaged size field cannot overrun dst.
  const unsigned long long content = ZSTD_getFrameContentSize(src, n);
  if (content == ZSTD_CONTENTSIZE_ERROR || content == ZSTD_CONTENTSIZE_UNKNOWN) {
    *error = "not a complete zstd frame";
    return false;
  }
  if (content != expected) {
    *error = "frame holds " + std::to_string(content) + " bytes, expected " + std::to_string(expected);
    return false;
  }
  const size_t r = ZSTD_decompressDCtx(dctx_, dst, expected, src, n);
  if (ZSTD_isError(r)) {
    *error = error_name(r);
    return false;
  }
  if (r != expected) {
    *error = "frame decoded to " + std::to_string(r) + " bytes, expected " + std::to_string(expected);
    return false;
  }
  return true;
}

}  // namespace gsort
