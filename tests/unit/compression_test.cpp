// The compressed formats on the library: recognising each by its magic
// (and not plain data that merely starts like one), the output suffixes,
// the levels, and every encoder read back by InputFile's decoders whatever
// the sizes of the writes (gsort's own round trip; the tools' is in
// tests/cli/compressed_formats_test.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "io/codec/compression.h"
#include "io/codec/input_format.h"
#include "io/input/input_set.h"
#include "io/codec/output_encoder.h"
#include "src/core/errors.h"
#include "tests/support/record_gen.h"
#include "tests/support/temp_dir.h"

namespace gsort_test {
namespace {

using gsort::CompressionFormat;

CompressionFormat by_magic(const std::string& bytes) {
  return gsort::format_by_magic(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
}

TEST(CompressionFormats, RecognisedByTheirMagic) {
  EXPECT_EQ(by_magic(std::string("\x28\xb5\x2f\xfd\x00", 5)), CompressionFormat::kZstd);
  EXPECT_EQ(by_magic(std::string("\x1f\x8b\x08\x00\x00\x00", 6)), CompressionFormat::kGzip);
  EXPECT_EQ(by_magic(std::string("\x1f\x8b\x08\x08", 4)), CompressionFormat::kGzip);  // FNAME set
  EXPECT_EQ(by_magic("BZh91AY&SY"), CompressionFormat::kBzip2);
  EXPECT_EQ(by_magic(std::string("\xfd" "7zXZ\x00", 6)), CompressionFormat::kXz);
}

TEST(CompressionFormats, PlainDataThatOnlyStartsLikeOne) {
  EXPECT_EQ(by_magic(""), CompressionFormat::kNone);
  EXPECT_EQ(by_magic(std::string("\x1f\x8b", 2)), CompressionFormat::kNone);         // too short
  EXPECT_EQ(by_magic(std::string("\x1f\x8b\x07\x00", 4)), CompressionFormat::kNone); // not deflate
  EXPECT_EQ(by_magic(std::string("\x1f\x8b\x08\x20", 4)), CompressionFormat::kNone); // reserved flag
  EXPECT_EQ(by_magic("BZh0"), CompressionFormat::kNone);
  EXPECT_EQ(by_magic("BZhx"), CompressionFormat::kNone);
  EXPECT_EQ(by_magic(std::string("\xfd" "7zXZ", 5)), CompressionFormat::kNone);
  EXPECT_EQ(by_magic(std::string("\xfd" "7zXZ\x01", 6)), CompressionFormat::kNone);
}

TEST(CompressionFormats, OutputSuffixes) {
  EXPECT_EQ(gsort::format_by_suffix("-"), CompressionFormat::kNone);
  EXPECT_EQ(gsort::format_by_suffix("out.bin"), CompressionFormat::kNone);
  EXPECT_EQ(gsort::format_by_suffix("out.gz.part"), CompressionFormat::kNone);
  EXPECT_EQ(gsort::format_by_suffix(".gz"), CompressionFormat::kNone);  // a hidden file's whole name
  EXPECT_EQ(gsort::format_by_suffix("dir.xz/out"), CompressionFormat::kNone);
  EXPECT_EQ(gsort::format_by_suffix("a.zst"), CompressionFormat::kZstd);
  EXPECT_EQ(gsort::format_by_suffix("a.gz"), CompressionFormat::kGzip);
  EXPECT_EQ(gsort::format_by_suffix("A.GZ"), CompressionFormat::kGzip);
  EXPECT_EQ(gsort::format_by_suffix("a.tgz"), CompressionFormat::kGzip);
  EXPECT_EQ(gsort::format_by_suffix("a.bz2"), CompressionFormat::kBzip2);
  EXPECT_EQ(gsort::format_by_suffix("a.xz"), CompressionFormat::kXz);
  for (const char* name : {"a.lz4", "a.lz", "a.lzma", "a.zip", "a.Z", "a.z", "a.br", "a.7z", "a.LZO"}) {
    EXPECT_THROW(gsort::format_by_suffix(name), gsort::UsageError) << name;
  }
}

TEST(CompressionFormats, LevelsPerFormat) {
  EXPECT_EQ(gsort::default_level(CompressionFormat::kZstd), 3);
  EXPECT_EQ(gsort::default_level(CompressionFormat::kGzip), 6);
  EXPECT_EQ(gsort::default_level(CompressionFormat::kBzip2), 9);
  EXPECT_EQ(gsort::default_level(CompressionFormat::kXz), 6);
  EXPECT_NO_THROW(gsort::check_level(CompressionFormat::kXz, 0, "-x"));
  EXPECT_THROW(gsort::check_level(CompressionFormat::kGzip, 0, "-x"), gsort::UsageError);
  EXPECT_THROW(gsort::check_level(CompressionFormat::kBzip2, 10, "-x"), gsort::UsageError);
  EXPECT_NO_THROW(gsort::check_level(CompressionFormat::kZstd, 19, "-x"));
}

// Writes `data` through an encoder in writes of the given sizes (cycled),
// then reads it back as an input.
// The name suffix that makes an input be read in format f.
std::string suffix_of(CompressionFormat f) {
  switch (f) {
    case CompressionFormat::kZstd: return ".zst";
    case CompressionFormat::kGzip: return ".gz";
    case CompressionFormat::kBzip2: return ".bz2";
    case CompressionFormat::kXz: return ".xz";
    case CompressionFormat::kNone: break;
  }
  return "";
}

std::string round_trip(CompressionFormat format, int level, unsigned threads, const std::string& data,
                       const std::vector<size_t>& write_sizes, const std::string& path) {
  gsort::ThreadPool pool(threads);
  {
    gsort::File file = gsort::File::create(path);
    auto encoder = gsort::make_output_encoder(format, file, level, threads, pool);
    size_t done = 0;
    for (size_t i = 0; done < data.size(); ++i) {
      const size_t n = std::min(write_sizes[i % write_sizes.size()], data.size() - done);
      encoder->write(reinterpret_cast<const uint8_t*>(data.data()) + done, n);
      done += n;
    }
    encoder->finish();
    EXPECT_EQ(encoder->bytes_out(), file.size());
    file.close();
  }
  gsort::InputSet inputs({path}, 1);
  std::string back(data.size() + 1, '\0');
  const uint64_t got = inputs.read(reinterpret_cast<uint8_t*>(back.data()), back.size());
  back.resize(got);
  return back;
}

TEST(CompressionFormats, EveryEncoderReadsBackWhateverTheWrites) {
  TempDir dir;
  Rng rng(21);
  const std::string data = numbered_u32_records(rng, 300000, 50, true);  // 4.8 MB: several pieces
  for (CompressionFormat f : {CompressionFormat::kZstd, CompressionFormat::kGzip, CompressionFormat::kBzip2,
                              CompressionFormat::kXz}) {
    SCOPED_TRACE(gsort::format_name(f));
    const int level = f == CompressionFormat::kXz ? 0 : 1;  // quick
    for (unsigned threads : {1u, 3u}) {
      EXPECT_TRUE(round_trip(f, level, threads, data, {1, 4095, 1 << 20, 7}, dir.file("a" + suffix_of(f))) == data);
    }
    EXPECT_EQ(round_trip(f, level, 2, "", {1}, dir.file("empty" + suffix_of(f))), "");
  }
}

// Issue 37: an input is decoded by its name, or by its magic only where
// the run asks for it (--decompress); a text that begins with a magic is text.
TEST(InputFormat, ByNameOrByMagicWhenAsked) {
  const std::string gz("\x1f\x8b\x08\x00", 4);
  const auto format_of = [](const std::string& name, const std::string& bytes) {
    return gsort::input_format(name, reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  };
  EXPECT_EQ(format_of("in.gz", "plain"), CompressionFormat::kGzip);
  EXPECT_EQ(format_of("in.ZST", ""), CompressionFormat::kZstd);
  EXPECT_EQ(format_of("in.bz2", ""), CompressionFormat::kBzip2);
  EXPECT_EQ(format_of("in.xz", ""), CompressionFormat::kXz);
  EXPECT_EQ(format_of("in.lz4", gz), CompressionFormat::kNone) << "a format gsort does not read: as it is";
  EXPECT_EQ(format_of("in.txt", gz), CompressionFormat::kNone);
  EXPECT_EQ(format_of("-", "BZh9"), CompressionFormat::kNone);
  gsort::set_input_decoding(gsort::InputDecoding::kSniff);
  EXPECT_EQ(format_of("in.txt", gz), CompressionFormat::kGzip);
  EXPECT_EQ(format_of("-", "BZh9"), CompressionFormat::kBzip2);
  EXPECT_EQ(format_of("-", "(\xb5/\xfd"), CompressionFormat::kZstd);
  EXPECT_EQ(format_of("in.txt", "plain"), CompressionFormat::kNone);
  gsort::set_input_decoding(gsort::InputDecoding::kByName);
}

}  // namespace
}  // namespace gsort_test
