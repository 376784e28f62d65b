#include "io/codec/member_encoder.h"

#include <algorithm>
#include <boost/iostreams/device/back_inserter.hpp>
#include <boost/iostreams/filter/bzip2.hpp>
#include <boost/iostreams/filter/gzip.hpp>
#include <cstring>
#include <string>
#include <vector>

#include "src/core/errors.h"

namespace gsort {
namespace {

namespace bio = boost::iostreams;

constexpr size_t kGzipMemberBytes = 1 << 20;
constexpr std::streamsize kFilterBufferBytes = 64 << 10;  // the filter's output steps

// Compresses n bytes at src into `out` as one complete member (gzip) or
// stream (bzip2); n may be 0 (an empty member, so that an empty output is
// still a valid file).
template <typename Compressor>
void compress_piece(Compressor compressor, const uint8_t* src, size_t n, std::string& out) {
  out.clear();
  bio::back_insert_device<std::string> sink(out);
  const char* p = reinterpret_cast<const char*>(src);
  compressor.write(sink, p, static_cast<std::streamsize>(n));  // a memory sink takes everything at once
  compressor.close(sink, std::ios_base::out);
}

class MemberEncoder final : public OutputEncoder {
 public:
  MemberEncoder(CompressionFormat format, File& file, int level, ThreadPool& pool)
      : format_(format),
        file_(file),
        level_(level),
        pool_(pool),
        piece_bytes_(format == CompressionFormat::kGzip ? kGzipMemberBytes : static_cast<size_t>(level) * 100000),
        // Two pieces per thread, so that a thread slowed by other work
        // (the merge shares the pool) does not hold up the batch alone.
        batch_pieces_(size_t{pool.size()} * 2),
        batch_(piece_bytes_ * batch_pieces_),
        pieces_(batch_pieces_) {}

  void write(const uint8_t* data, size_t n) override {
    while (n > 0) {
      const size_t take = std::min(n, batch_.size() - filled_);
      std::memcpy(batch_.data() + filled_, data, take);
      filled_ += take;
      data += take;
      n -= take;
      if (filled_ == batch_.size()) compress_batch();
    }
  }

  void finish() override {
    if (finished_) return;
    // An empty output still gets one (empty) member: a file of no bytes is
    // not a valid gzip or bzip2 file.
    if (filled_ > 0 || bytes_out_ == 0) compress_batch();
    finished_ = true;
  }

  uint64_t bytes_out() const override { return bytes_out_; }

 private:
  // Compresses the batch's pieces (the last may be short) on the pool and
  // writes them in order.
  void compress_batch() {
    const size_t count = std::max<size_t>(1, (filled_ + piece_bytes_ - 1) / piece_bytes_);
    try {
      pool_.parallel_for(count, [&](size_t i) {
        const size_t begin = i * piece_bytes_, n = std::min(piece_bytes_, filled_ - std::min(filled_, begin));
        const uint8_t* src = batch_.data() + begin;
        if (format_ == CompressionFormat::kGzip) {
          compress_piece(bio::gzip_compressor(bio::gzip_params(level_), kFilterBufferBytes), src, n, pieces_[i]);
        } else {
          compress_piece(bio::bzip2_compressor(bio::bzip2_params(level_), kFilterBufferBytes), src, n, pieces_[i]);
        }
      });
    } catch (const std::ios_base::failure& e) {  // Boost's zlib or libbz2 error
      throw Error(std::string(format_name(format_)) + " compression failed: " + e.what());
    }
    for (size_t i = 0; i < count; ++i) {
      file_.write_all(pieces_[i].data(), pieces_[i].size());
      bytes_out_ += pieces_[i].size();
    }
    filled_ = 0;
  }

  CompressionFormat format_;
  File& file_;
  int level_;
  ThreadPool& pool_;
  size_t piece_bytes_;
  size_t batch_pieces_;
  std::vector<uint8_t> batch_;       // the output's next bytes, batch_pieces_ pieces
  size_t filled_ = 0;
  std::vector<std::string> pieces_;  // compressed, one per piece of the batch (kept for their capacity)
  uint64_t bytes_out_ = 0;
  bool finished_ = false;
};

}  // namespace

std::unique_ptr<OutputEncoder> make_member_encoder(CompressionFormat format, File& file, int level, ThreadPool& pool) {
  return std::make_unique<MemberEncoder>(format, file, level, pool);
}

}  // namespace gsort
