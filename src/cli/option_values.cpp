#include "src/cli/option_values.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <initializer_list>
#include <thread>
#include <utility>

#include "io/codec/compression.h"
#include "io/codec/zstd_stream.h"
#include "src/cli/files0_from.h"
#include "src/cli/gnu_interface_values.h"
#include "src/cli/line_values.h"
#include "src/cli/size_parse.h"
#include "src/cli/sort_counts.h"
#include "src/core/address_space.h"
#include "src/core/errors.h"
#include "src/keys/key_layout.h"

namespace gsort {
namespace {

constexpr unsigned kThreadsPerCore = 4;  // --parallel is capped at this many per hardware thread
constexpr uint64_t kMostThreadsAsked = 1 << 30;  // larger --parallel values read as this
constexpr long long kMostSpillStreams = 64;
constexpr uint64_t kLeastRankMemoryBytes = 64ull << 20;  // a rank's share of the default -S
constexpr uint64_t kLeastDefaultMemoryBytes = 1ull << 20;  // the default -S under the tightest ulimit -v
constexpr uint64_t kLeastMemoryBytes = 1;  // -S 0 and the like: the plan sets its own floor
constexpr unsigned kHelperThreads = 10;  // beside the pool's: readers, spill and output writers, prefetch, the progress line

// One of a fixed set of names; UsageError listing them otherwise.
template <typename E>
E parse_choice(const char* what, const std::string& value,
               std::initializer_list<std::pair<const char*, E>> choices) {
  std::string names;
  for (const auto& [name, choice] : choices) {
    if (value == name) return choice;
    names += names.empty() ? name : std::string(", ") + name;
  }
  throw UsageError("unknown " + std::string(what) + " '" + value + "' (expected " + names + ")");
}

unsigned default_threads() {
  const unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : n;
}

std::string default_temp_dir() {
  const char* t = std::getenv("TMPDIR");
  return (t && *t) ? t : "/tmp";
}

// A level of `format` from "--option=LEVEL"; kImplicit (no "=LEVEL") gives
// `fallback`. zstd's level 0 is its "default level" (3), as in the zstd tool.
int parse_level(const std::string& text, const std::string& option, CompressionFormat format, int fallback) {
  if (text == kImplicit) return fallback;
  size_t used = 0;
  int level = 0;
  try {
    level = std::stoi(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size()) {
    throw UsageError(option + ": the level must be a number, not '" + text + "'");
  }
  check_level(format, level, option);
  return level;
}

// Record size (--record-size, --format) and keys (-k).
void set_record_layout(const RawOptions& o, SortConfig& c) {
  if (o.record_size < 0) throw UsageError("--record-size must be at least 1");
  uint64_t record_size = static_cast<uint64_t>(o.record_size);
  if (o.format_given) {  // --format= is no format, not none
    if (o.format != "gensort") throw UsageError("unknown format '" + o.format + "' (known: gensort)");
    if (record_size != 0 && record_size != 100) {  // 0: not given
      throw UsageError("--format gensort has 100-byte records, not " + std::to_string(record_size));
    }
    record_size = 100;
  }
  if (o.record_size_given && o.record_size == 0) throw UsageError("--record-size must be at least 1");
  if (record_size == 0) throw UsageError("no record size: give --record-size N or --format gensort");
  if (record_size > kMaxRecordSize) {
    throw UsageError("--record-size " + std::to_string(record_size) + " is larger than the maximum " +
                     std::to_string(kMaxRecordSize));
  }
  c.record_size = static_cast<uint32_t>(record_size);
  for (const std::string& spec : o.keys) {
    if (!spec.empty() && std::isdigit(static_cast<unsigned char>(spec[0])) && spec.find(':') == std::string::npos) {
      throw UsageError(gnu_key_in_record_mode(spec));
    }
    c.keys.push_back(parse_key_spec(spec));
  }
  if (c.keys.empty() && o.format == "gensort") c.keys.push_back(parse_key_spec("0:10"));
  // Validates the key against the record now, so the error comes first.
  if (!c.keys.empty()) KeyLayout(c.keys, c.record_size, false);
}

// What to do: sort, merge (-m) or check (-c, -C), and how (-r, -u).
void set_mode(const RawOptions& o, SortConfig& c) {
  c.reverse = o.reverse;
  c.unique = o.unique;
  if (o.check || o.check_quiet) c.mode = Mode::kCheck;
  c.check_quiet = o.check_quiet;
  // As sort: -c and -C check whatever else is asked; -m with them changes nothing.
  if (o.merge && c.mode != Mode::kCheck) c.mode = Mode::kMerge;
  const std::string check_letter = o.check_quiet ? "C" : "c";
  if (c.mode == Mode::kCheck && c.inputs.size() > 1) {
    throw UsageError("extra operand '" + c.inputs[1] + "' not allowed with -" + check_letter);
  }
  // As GNU sort: -c writes nothing, so an -o it would ignore is a mistake.
  if (c.mode == Mode::kCheck && o.output_given) throw UsageError("options '-" + check_letter + "o' are incompatible");
  // As sort: standard input named again is read once; the second time it
  // is at its end, so the later names add nothing.
  bool stdin_named = false;
  c.inputs.erase(std::remove_if(c.inputs.begin(), c.inputs.end(),
                                [&stdin_named](const std::string& in) {
                                  if (in != "-") return false;
                                  return std::exchange(stdin_named, true);
                                }),
                 c.inputs.end());
}

// The default -S: half the memory (the cgroup's limit where one is set),
// and no more than a quarter of what ulimit -v and -d leave once `threads`
// have started: GNU sort's default takes half, and gsort's threads (their
// malloc arenas) and the output's mapping want room beside it. A rank's
// share where several share the host (options.h).
uint64_t default_memory_bytes(unsigned ranks_on_host, unsigned threads) {
  const uint64_t ram = physical_memory_bytes();
  uint64_t bytes = ram ? ram / 2 : (1ull << 30);
  if (ranks_on_host > 0) bytes = std::max(bytes / ranks_on_host, kLeastRankMemoryBytes);
  const uint64_t left = address_space_left(threads + kHelperThreads);
  if (left != UINT64_MAX) bytes = std::max<uint64_t>(std::min(bytes, left / 4), kLeastDefaultMemoryBytes);
  return bytes;
}

// The host's share: memory budget, temp directory, threads (options.h
// says how ranks share the defaults).
void set_host_resources(const RawOptions& o, unsigned ranks_on_host, SortConfig& c) {
  c.temp_dir = o.temp_dir.empty() ? default_temp_dir() : o.temp_dir;
  // As sort, any number is taken; more threads than kThreadsPerCore per core are not started.
  c.threads_requested = o.parallel_given
                            ? static_cast<unsigned>(std::min<uint64_t>(parallel_threads(o.parallel), kMostThreadsAsked))
                            : default_threads();
  // The pool does data-parallel work: past a few threads per core they
  // only contend (4096 threads on 2 cores took 40 times as long).
  c.threads = std::min(c.threads_requested, kThreadsPerCore * default_threads());
  // All cores, whether given so or not, are the host's to share.
  if (ranks_on_host > 0 && c.threads == default_threads()) {
    c.threads = c.threads_requested = std::max(1u, c.threads / ranks_on_host);
  }
  if (o.memory_given) {  // -S '' is an invalid size, not the default
    // As sort, 0 (or any small size) is its least budget.
    c.memory_bytes = std::max(parse_size(o.memory, "--memory"), kLeastMemoryBytes);
  } else {
    c.memory_bytes = default_memory_bytes(ranks_on_host, c.threads);
  }
  // As GNU sort: no more sources than the open-file limit lets one merge
  // open beside the standard streams.
  c.batch_size = o.batch_size_given ? merge_batch_size(o.batch_size) : 0;
}

// --backend, --algorithm, --exchange, --device, --gpu-memory.
void set_backend(const RawOptions& o, SortConfig& c) {
  c.backend = parse_choice<BackendChoice>("backend", o.backend,
                                          {{"auto", BackendChoice::kAuto},
                                           {"gpu", BackendChoice::kGpu},
                                           {"cpu", BackendChoice::kCpu},
                                           {"hybrid", BackendChoice::kHybrid}});
  c.algorithm = parse_choice<AlgorithmChoice>("algorithm", o.algorithm,
                                              {{"auto", AlgorithmChoice::kAuto},
                                               {"cub", AlgorithmChoice::kCub},
                                               {"radix", AlgorithmChoice::kRadix},
                                               {"merge", AlgorithmChoice::kMerge}});
  c.exchange = parse_choice<ExchangeChoice>("exchange", o.exchange,
                                            {{"auto", ExchangeChoice::kAuto},
                                             {"mpi", ExchangeChoice::kMpi},
                                             {"nccl", ExchangeChoice::kNccl},
                                             {"shm", ExchangeChoice::kShm}});
  if (o.device < 0) throw UsageError("--device must be 0 or more");
  c.device = o.device;
  if (o.gpu_memory_given) {  // --gpu-memory= is an invalid size, not the default
    c.gpu_memory = parse_size(o.gpu_memory, "--gpu-memory");
    if (c.gpu_memory == 0) throw UsageError("--gpu-memory must be more than 0");
  }
}

// --compress-temp[=auto|on|off|LEVEL]; a bare --compress-temp is on.
void set_temp_compression(const RawOptions& o, SortConfig& c) {
  if (!o.compress_temp_given) return;
  c.temp_level = kDefaultTempLevel;
  const std::string& value = o.compress_temp;
  if (value == "auto") {
    c.compress_temp = TempCompression::kAuto;
  } else if (value == "off") {
    c.compress_temp = TempCompression::kOff;
  } else {
    c.compress_temp = TempCompression::kOn;
    if (value == kImplicit || value == "on") return;
    if (value.empty() || value.find_first_not_of("-0123456789") != std::string::npos) {
      throw UsageError("--compress-temp: expected auto, on, off or a zstd level, not '" + value + "'");
    }
    c.temp_level = parse_level(value, "--compress-temp", CompressionFormat::kZstd, kDefaultTempLevel);
  }
}

// How runs and the input use the disk and the page cache: --compress-temp,
// --spill-streams, --page-cache.
void set_spilling(const RawOptions& o, SortConfig& c) {
  set_temp_compression(o, c);
  if (o.spill_streams_given && (o.spill_streams < 1 || o.spill_streams > kMostSpillStreams)) {
    throw UsageError("--spill-streams " + std::to_string(o.spill_streams) + " is out of range (1 to " +
                     std::to_string(kMostSpillStreams) + ")");
  }
  c.spill_streams = static_cast<unsigned>(o.spill_streams);
  c.page_cache = parse_choice<PageCacheUse>("--page-cache value", o.page_cache,
                                           {{"keep", PageCacheUse::kKeep}, {"drop", PageCacheUse::kDrop}});
}

// --compress-output (also implied by -o FILE.zst, .gz, .bz2, .xz; the
// suffix picks the format, zstd without one).
void set_compression(const RawOptions& o, SortConfig& c) {
  // With --output-parts, -o names a directory: its suffix names no format.
  const CompressionFormat named = c.output_parts ? CompressionFormat::kNone : format_by_suffix(c.output);
  if (o.compress_output_given || named != CompressionFormat::kNone) {
    c.compress_output = true;
    c.output_format = named == CompressionFormat::kNone ? CompressionFormat::kZstd : named;
    c.output_level = parse_level(o.compress_output_given ? o.compress_output : kImplicit, "--compress-output",
                                 c.output_format, default_level(c.output_format));
  }
}

// --decompress[=auto|no]: inputs decoded by their magic too, or by name only.
void set_decompression(const RawOptions& o, SortConfig& c) {
  if (o.decompress.empty() || o.decompress == "no") return;
  if (o.decompress != kImplicit && o.decompress != "auto") {
    throw UsageError("--decompress: expected auto or no, not '" + o.decompress + "'");
  }
  c.decompress = InputDecoding::kSniff;
}

// --verify, --fsync, --progress, --stats, --trace. Of --verify and
// --no-verify (--progress and --no-progress) only the last one given is
// left (repeated_options.h).
void set_reporting(const RawOptions& o, SortConfig& c) {
  c.verify = o.verify;
  c.fsync = o.fsync;
  c.space_check = !o.no_space_check;
  c.progress = o.progress ? ProgressMode::kOn : o.no_progress ? ProgressMode::kOff : ProgressMode::kAuto;
  if (o.stats.empty() && o.stats_given) throw UsageError("--stats needs a file name (or - for standard error)");
  c.stats_path = o.stats;
  if (o.trace_given && (o.trace.empty() || o.trace == "-")) throw UsageError("--trace needs a file name");
  c.trace_path = o.trace;
}

}  // namespace

// The options, checked in this order (the first error is the one reported).
SortConfig to_config(const RawOptions& o, unsigned ranks_on_host) {
  // GNU sort refuses this as it parses, before anything else.
  if (o.check && o.check_quiet) throw UsageError("options '-cC' are incompatible");
  SortConfig c;
  c.inputs = o.lines.files0_from_given ? read_files0_from(o.lines.files0_from, o.inputs) : o.inputs;
  if (c.inputs.empty()) c.inputs = {"-"};
  c.output = o.output.empty() ? throw UsageError("--output needs a file name") : o.output;
  c.output_parts = o.output_parts;
  c.to_terminal = o.to_terminal;
  if (c.output_parts && c.output == "-") throw UsageError("--output-parts needs -o DIR");
  const bool lines = !o.record_size_given && !o.format_given;  // text lines, the default
  if (lines) refuse_incompatible_gnu_orderings(o.lines, o.keys);
  if (lines) {
    set_mode(o, c);
    set_line_options(o.lines, o.keys, o.stable, c);
  } else {
    refuse_line_options_for_records(o.lines);
    set_record_layout(o, c);
    set_mode(o, c);
  }
  set_gnu_interface(o, lines, c);
  set_host_resources(o, ranks_on_host, c);
  c.verbose = o.verbose;
  set_backend(o, c);
  set_spilling(o, c);
  set_compression(o, c);
  set_decompression(o, c);
  set_reporting(o, c);
  return c;
}

}  // namespace gsort
