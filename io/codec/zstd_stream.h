// zstd in gsort: compressed inputs, compressed output, compressed run files.
//
// Design note. gsort calls libzstd's own API (ZSTD_CCtx / ZSTD_DCtx,
// ZSTD_compressStream2, ZSTD_decompressStream, and the one-shot
// ZSTD_compress2 / ZSTD_decompressDCtx for run frames) rather than
// Boost.Iostreams' zstd filters:
//  - Run files need independent frames of a chosen size, each with its
//    sizes and checksum beside it, decoded one at a time straight into the
//    merge's read buffers; a stream filter hides frame boundaries.
//  - Boost 1.74's zstd_params carry only a level: no checksum flag, no
//    worker threads for the output.
//  - Errors: we tell "truncated" from "corrupted" and name the file; the
//    Boost filter throws one generic zstd_error.
//  - Speed: decoding straight into the caller's buffer saves the
//    streambuf's extra copy (figures: docs/benchmarks.md, "Which zstd API").
//
// The three uses:
//  - ZstdInputStream decodes an input (file or pipe) while it is read; the
//    input is recognised by the frame magic 0xFD2FB528 at offset 0.
//  - ZstdOutputStream encodes the output (-o FILE.zst, --compress-output)
//    as one frame with a content checksum, optionally with worker threads.
//  - ZstdCompressor / ZstdDecompressor compress and decompress whole frames
//    in one call, for the frames of a compressed run file (io/run/run_file.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "io/file/file.h"
#include "io/codec/input_decoder.h"
#include "io/codec/output_encoder.h"

struct ZSTD_CCtx_s;
struct ZSTD_DCtx_s;

namespace gsort {

// The little-endian magic number at the start of every zstd frame.
constexpr uint32_t kZstdMagic = 0xFD2FB528u;
constexpr size_t kZstdMagicBytes = 4;
// Default levels: temp runs favour speed, the output zstd's own default.
constexpr int kDefaultTempLevel = 1;
constexpr int kDefaultOutputLevel = 3;

// True when the first 4 bytes are the zstd frame magic.
bool is_zstd_magic(const uint8_t* bytes, size_t size);

// Throws UsageError unless `level` is a zstd level this library supports.
void check_zstd_level(int level, const std::string& option);

// Decodes a zstd stream (one or more frames) read from a file. Corrupted or
// truncated data throws DataError naming the input.
class ZstdInputStream final : public InputDecoder {
 public:
  // `peeked`: bytes already read from the file (the magic), decoded first.
  ZstdInputStream(File& file, const uint8_t* peeked, size_t peeked_bytes);
  ~ZstdInputStream() override;
  ZstdInputStream(const ZstdInputStream&) = delete;
  ZstdInputStream& operator=(const ZstdInputStream&) = delete;

  size_t read(uint8_t* out, size_t n) override;
  uint64_t compressed_bytes() const override { return compressed_bytes_; }

 private:
  File& file_;
  ZSTD_DCtx_s* dctx_;
  std::vector<uint8_t> in_;
  size_t in_pos_ = 0, in_end_ = 0;
  bool eof_ = false;
  bool mid_frame_ = false;  // the last call left a frame unfinished
  uint64_t compressed_bytes_ = 0;
};

// Encodes everything written into one zstd frame (with a content checksum)
// on a file. finish() ends the frame; without it the file holds no valid
// frame end. Not thread-safe: one writer thread.
class ZstdOutputStream final : public OutputEncoder {
 public:
  // workers > 0 asks libzstd for that many compression threads.
  ZstdOutputStream(File& file, int level, unsigned workers);
  ~ZstdOutputStream() override;
  ZstdOutputStream(const ZstdOutputStream&) = delete;
  ZstdOutputStream& operator=(const ZstdOutputStream&) = delete;

  void write(const uint8_t* data, size_t n) override;
  void finish() override;
  uint64_t bytes_out() const override { return bytes_out_; }

 private:
  void drain(const void* data, size_t n, bool end);

  File& file_;
  ZSTD_CCtx_s* cctx_;
  std::vector<uint8_t> out_;
  uint64_t bytes_out_ = 0;
  bool finished_ = false;
};

// One-shot compression of independent frames (no content checksum: run
// files keep an XXH3 of each frame beside it).
class ZstdCompressor {
 public:
  explicit ZstdCompressor(int level);
  ~ZstdCompressor();
  ZstdCompressor(const ZstdCompressor&) = delete;
  ZstdCompressor& operator=(const ZstdCompressor&) = delete;

  // The most bytes compress() can produce for n input bytes.
  static size_t bound(size_t n);
  // Compresses src into dst (capacity >= bound(n)); returns the frame size.
  size_t compress(void* dst, size_t capacity, const void* src, size_t n);

 private:
  ZSTD_CCtx_s* cctx_;
};

// Enough bytes from the start of a zstd frame to hold its header.
constexpr size_t kZstdFrameHeaderMaxBytes = 18;

// The decoded size the frame header at `src` declares; false when the n
// bytes hold no complete frame header or the header gives no size.
bool zstd_frame_content_size(const void* src, size_t n, uint64_t* size);

// One-shot decompression of whole frames. decompress() returns false (and
// sets *error) on corrupt data, or when the frame does not decode to
// exactly `expected` bytes.
class ZstdDecompressor {
 public:
  ZstdDecompressor();
  ~ZstdDecompressor();
  ZstdDecompressor(const ZstdDecompressor&) = delete;
  ZstdDecompressor& operator=(const ZstdDecompressor&) = delete;

  bool decompress(void* dst, size_t expected, const void* src, size_t n, std::string* error);

 private:
  ZSTD_DCtx_s* dctx_;
};

}  // namespace gsort
