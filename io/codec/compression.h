// The compressed formats gsort reads and writes: how an input in each is
// recognised (its magic, whatever the file is called), which output names
// ask for one (the suffix), and what a level means for each.
//
//   format  magic at offset 0               written for -o NAME  levels (default)
//   zstd    28 B5 2F FD                     .zst .tzst           zstd's, 0 = 3 (3)
//   gzip    1F 8B 08, flag bits 5-7 clear   .gz .tgz             1-9 (6)
//   bzip2   "BZh" and a digit 1-9           .bz2 .bz .tbz2 .tbz  1-9: blocks of N x 100 kB (9)
//   xz      FD "7zXZ" 00                    .xz .txz             0-9, xz's presets (6)
//
// The defaults are those of the zstd, gzip, bzip2 and xz tools. gzip's
// magic is checked past its two bytes (the method, deflate, is the only one
// defined, and the reserved flag bits must be clear, as gzip itself checks),
// so that a plain input is far less likely to pass for gzip.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "src/core/compression_format.h"

namespace gsort {

// Enough bytes from the start of an input to recognise every format.
constexpr size_t kMagicPeekBytes = 6;

// The format whose magic `bytes` start with; kNone for plain data (and for
// fewer bytes than the format's magic).
CompressionFormat format_by_magic(const uint8_t* bytes, size_t size);

// The format the suffix of an output name asks for (case aside), kNone for
// a name with no compression suffix (and for "-"). A suffix of a format
// gsort cannot write (.lz4, .lz, .lzma, .zip, .Z, .br, .7z, ...) throws
// UsageError: writing plain records under such a name would mislead.
CompressionFormat format_by_suffix(const std::string& name);

// A level's meaning differs by format (see the table above).
int default_level(CompressionFormat format);
// Throws UsageError naming `option` unless `level` is one of the format's.
void check_level(CompressionFormat format, int level, const std::string& option);

// "zstd 1.5.4, zlib 1.2.13, bzip2 1.0.8, xz 5.4.1": the codecs built in.
std::string codec_versions();

}  // namespace gsort
