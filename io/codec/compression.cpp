#include "io/codec/compression.h"

#include <bzlib.h>
#include <lzma.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cctype>
#include <cstring>

#include "io/codec/zstd_stream.h"
#include "src/core/errors.h"

namespace gsort {
namespace {

struct Suffix {
  const char* suffix;
  CompressionFormat format;  // kNone: a format gsort cannot write
  const char* name;          // for the message about one it cannot write
};

// Compared without regard to case: out.GZ is as much gzip as out.gz.
constexpr Suffix kSuffixes[] = {
    {".zst", CompressionFormat::kZstd, ""},   {".tzst", CompressionFormat::kZstd, ""},
    {".gz", CompressionFormat::kGzip, ""},    {".tgz", CompressionFormat::kGzip, ""},
    {".bz2", CompressionFormat::kBzip2, ""},  {".bz", CompressionFormat::kBzip2, ""},
    {".tbz2", CompressionFormat::kBzip2, ""}, {".tbz", CompressionFormat::kBzip2, ""},
    {".xz", CompressionFormat::kXz, ""},      {".txz", CompressionFormat::kXz, ""},
    {".lz4", CompressionFormat::kNone, "lz4"},   {".lz", CompressionFormat::kNone, "lzip"},
    {".tlz", CompressionFormat::kNone, "lzip"},  {".lzma", CompressionFormat::kNone, "lzma"},
    {".lzo", CompressionFormat::kNone, "lzop"},  {".z", CompressionFormat::kNone, "compress"},
    {".zip", CompressionFormat::kNone, "zip"},   {".br", CompressionFormat::kNone, "brotli"},
    {".7z", CompressionFormat::kNone, "7-Zip"},  {".rar", CompressionFormat::kNone, "RAR"},
    {".sz", CompressionFormat::kNone, "snappy"}, {".lrz", CompressionFormat::kNone, "lrzip"},
};

bool ends_with_nocase(const std::string& path, const char* suffix) {
  const size_t n = std::strlen(suffix);
  const size_t slash = path.rfind('/');
  const size_t base = slash == std::string::npos ? path.size() : path.size() - slash - 1;
  if (base <= n) return false;  // ".gz" alone is a hidden file's name, not a suffix
  return std::equal(path.end() - static_cast<std::ptrdiff_t>(n), path.end(), suffix, [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
  });
}

struct Levels {
  int min, max, fallback;
};

Levels levels_of(CompressionFormat format) {
  switch (format) {
    case CompressionFormat::kZstd: return {ZSTD_minCLevel(), ZSTD_maxCLevel(), kDefaultOutputLevel};
    case CompressionFormat::kGzip: return {1, 9, 6};
    case CompressionFormat::kBzip2: return {1, 9, 9};
    case CompressionFormat::kXz: return {0, 9, 6};
    case CompressionFormat::kNone: break;
  }
  throw Error("no levels for plain data");
}

}  // namespace

CompressionFormat format_by_magic(const uint8_t* b, size_t size) {
  if (is_zstd_magic(b, size)) return CompressionFormat::kZstd;
  if (size >= 4 && b[0] == 0x1F && b[1] == 0x8B && b[2] == 0x08 && (b[3] & 0xE0) == 0) return CompressionFormat::kGzip;
  if (size >= 4 && b[0] == 'B' && b[1] == 'Z' && b[2] == 'h' && b[3] >= '1' && b[3] <= '9') {
    return CompressionFormat::kBzip2;
  }
  static const uint8_t kXzMagic[6] = {0xFD, '7', 'z', 'X', 'Z', 0x00};
  if (size >= sizeof kXzMagic && std::memcmp(b, kXzMagic, sizeof kXzMagic) == 0) return CompressionFormat::kXz;
  return CompressionFormat::kNone;
}

CompressionFormat format_by_suffix(const std::string& name) {
  if (name == "-") return CompressionFormat::kNone;
  for (const Suffix& s : kSuffixes) {
    if (!ends_with_nocase(name, s.suffix)) continue;
    if (s.format == CompressionFormat::kNone) {
      throw UsageError(name + ": gsort cannot write " + s.name +
                       " files (only .zst, .gz, .bz2, .xz); choose another name to write plain records");
    }
    return s.format;
  }
  return CompressionFormat::kNone;
}

int default_level(CompressionFormat format) { return levels_of(format).fallback; }

void check_level(CompressionFormat format, int level, const std::string& option) {
  const Levels l = levels_of(format);
  if (level < l.min || level > l.max) {
    throw UsageError(option + ": " + format_name(format) + " level " + std::to_string(level) + " is out of range (" +
                     std::to_string(l.min) + " to " + std::to_string(l.max) + ")");
  }
}

std::string codec_versions() {
  // bzip2 says "1.0.8, 13-Jul-2019": the version is what comes before the comma.
  std::string bzip2 = BZ2_bzlibVersion();
  bzip2 = bzip2.substr(0, bzip2.find(','));
  return std::string("zstd ") + ZSTD_versionString() + ", zlib " + zlibVersion() + ", bzip2 " + bzip2 + ", xz " +
         lzma_version_string();
}

}  // namespace gsort
