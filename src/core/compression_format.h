// The compressed formats gsort reads and writes, by name. The facts about
// each (magic, suffixes, levels, codecs) are in io/codec/compression.h; this enum
// sits in core so that the configuration (src/config) can name one too.
#pragma once

namespace gsort {

enum class CompressionFormat { kNone, kZstd, kGzip, kBzip2, kXz };

// "zstd", "gzip", "bzip2", "xz" ("plain" for kNone), as in messages and --stats.
constexpr const char* format_name(CompressionFormat f) {
  switch (f) {
    case CompressionFormat::kZstd: return "zstd";
    case CompressionFormat::kGzip: return "gzip";
    case CompressionFormat::kBzip2: return "bzip2";
    case CompressionFormat::kXz: return "xz";
    case CompressionFormat::kNone: break;
  }
  return "plain";
}

// Which inputs are decoded: those whose name ends in a compressed format's
// suffix (.gz .bz2 .xz .zst, io/codec/compression.h), and, with
// --decompress (kSniff), any other that starts with a format's magic,
// standard input included. Never by content alone otherwise: a text that
// happens to begin with a magic is text.
enum class InputDecoding { kByName, kSniff };

}  // namespace gsort
