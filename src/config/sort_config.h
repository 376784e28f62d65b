// What the user asked for, parsed from the command line: plain data, no
// run state (that is RunOptions', src/config/run_options.h). The pipeline
// reads it; nothing writes it after parsing.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/core/compression_format.h"
#include "src/keys/key_field.h"
#include "src/keys/line_options.h"

namespace gsort {

enum class Mode { kSort, kMerge, kCheck };
enum class BackendChoice { kAuto, kCpu, kGpu, kHybrid };
enum class AlgorithmChoice { kAuto, kCub, kRadix, kMerge };  // the GPU's chunk sort
enum class ProgressMode { kAuto, kOn, kOff };  // kAuto: when stderr is a terminal
enum class ExchangeChoice { kAuto, kMpi, kNccl, kShm };  // the distributed sort's data plane
// --compress-temp: kAuto decides from measurements (src/pipeline/temp_compression.h).
enum class TempCompression { kAuto, kOn, kOff };
// --page-cache: kDrop (the default) drops the input pages gsort itself
// brought into the page cache, once read (io/cache/cache_release.h); kKeep
// leaves them.
enum class PageCacheUse { kKeep, kDrop };

struct SortConfig {
  Mode mode = Mode::kSort;
  std::vector<std::string> inputs;  // "-" is stdin; never empty after parsing
  std::string output = "-";         // "-" is stdout

  uint32_t record_size = 0;
  std::vector<KeyField> keys;  // empty: the whole record as bytes
  bool reverse = false;
  bool unique = false;
  bool check_quiet = false;  // -C
  LineOptions lines;         // text lines (lines.enabled): keys and options; record_size and keys unused

  // -S and --parallel resolved for this process: their defaults are shares
  // of the host, divided between the ranks on it (options.h).
  uint64_t memory_bytes = 0;  // -S, resolved to bytes
  std::string temp_dir;       // -T, resolved ($TMPDIR, else /tmp)
  unsigned threads = 1;       // --parallel, resolved and capped (options.cpp)
  unsigned threads_requested = 1;  // --parallel as given (or the default), for -v's "capped at"
  uint64_t batch_size = 0;    // --batch-size: most sources merged at once; 0: from limits
  bool verbose = false;

  BackendChoice backend = BackendChoice::kAuto;
  AlgorithmChoice algorithm = AlgorithmChoice::kAuto;
  int device = 0;              // --device
  uint64_t gpu_memory = 0;     // --gpu-memory; 0 means most of the free memory

  TempCompression compress_temp = TempCompression::kAuto;  // --compress-temp: spill runs as zstd frames
  std::string compress_program;  // --compress-program: PROG compresses the runs, PROG -d reads them ("" none)
  int temp_level = 1;           // its zstd level
  unsigned spill_streams = 0;   // --spill-streams: files a run is written as at once; 0: the default
  PageCacheUse page_cache = PageCacheUse::kDrop;  // --page-cache
  InputDecoding decompress = InputDecoding::kByName;  // --decompress: inputs decoded by their magic too
  bool compress_output = false; // --compress-output, or -o FILE.zst/.gz/.bz2/.xz
  CompressionFormat output_format = CompressionFormat::kZstd;  // by the output's suffix (zstd without one)
  int output_level = 3;         // its level, as that format counts them (io/codec/compression.h)
  bool verify = false;          // --verify (--no-verify): end-to-end check of the output
  bool fsync = false;           // --fsync: the output is on stable storage before exit 0
  bool space_check = true;      // refuse to start without room for what is written (--no-space-check: off)
  ProgressMode progress = ProgressMode::kAuto;  // --progress / --no-progress
  std::string stats_path;       // --stats FILE ("-": stderr); empty: none
  std::string trace_path;       // --trace FILE (a Chrome trace of the phases); empty: none
  bool output_parts = false;    // --output-parts: -o is a directory of part-NNNNN files, one per rank
  ExchangeChoice exchange = ExchangeChoice::kAuto;  // --exchange (src/distributed/exchange/exchange_choice.h)
  bool to_terminal = false;     // --to-terminal: binary output to a terminal is wanted
};

}  // namespace gsort
