#include "src/cli/options.h"

#include <unistd.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <cerrno>
#include <cctype>
#include <cstdio>
#include <initializer_list>
#include <cstdlib>
#include <thread>

#include "src/cli/build_info.h"
#include "src/cli/help_text.h"
#include "src/cli/line_command.h"
#include "src/cli/repeated_options.h"
#include "src/cli/size_parse.h"
#include "src/core/errors.h"
#include "io/compression.h"
#include "io/file.h"
#include "io/zstd_stream.h"
#include "src/keys/key_layout.h"

namespace po = boost::program_options;

namespace gsort {
namespace {

constexpr uint32_t kMaxRecordSize = 64u << 20;
constexpr unsigned kThreadsPerCore = 4;  // --parallel is capped at this many per hardware thread
constexpr long long kMostSpillStreams = 64;

struct RawOptions {
  std::vector<std::string> inputs;
  std::string output = "-";
  long long record_size = 0;  // signed, so that "-4" is rejected as negative
  std::vector<std::string> keys;
  std::string format;
  bool reverse = false, unique = false, check = false, check_quiet = false, merge = false;
  bool stable = false;  // -s: accepted for GNU sort's sake; every sort is stable
  bool to_terminal = false;  // --to-terminal
  std::string memory;
  std::string temp_dir;
  long long parallel = 0;  // signed, so that "-1" is rejected rather than wrapped
  long long batch_size = 0;  // signed, likewise
  bool batch_size_given = false;
  bool verbose = false;
  std::string backend = "auto";
  std::string algorithm = "auto";
  std::string exchange = "auto";
  int device = 0;
  std::string gpu_memory;
  bool help = false, version = false;
  bool record_size_given = false, output_given = false, memory_given = false;
  // Optional-value options: empty when absent, kImplicit when given bare.
  std::string compress_temp, compress_output;
  long long spill_streams = 0;  // signed, so that "-1" is rejected
  std::string page_cache = "drop";
  bool spill_streams_given = false;
  bool verify = false, no_verify = false, fsync = false;
  bool progress = false, no_progress = false;
  std::string stats;
  std::string trace;
  bool trace_given = false;
  bool stats_given = false, compress_temp_given = false, compress_output_given = false;
  bool output_parts = false;
  RawLineOptions lines;  // text lines' options, and GNU sort's refused ones (line_command.h)
};

constexpr const char* kImplicit = "default";

po::options_description visible_options(RawOptions& o) {
  po::options_description d("Options");
  d.add_options()
      ("output,o", po::value(&o.output)->value_name("FILE"),
       "write the result to FILE (default: standard output); FILE may be one of the inputs")
      ("record-size", po::value(&o.record_size)->value_name("N"), "records are N bytes long")
      ("key,k", po::value(&o.keys)->value_name("SPEC")->composing(),
       "sort by this key; repeat for tie-breaking keys. Lines: GNU sort's POS1[,POS2], POS is F[.C][OPTS] "
       "(field F, character C, from 1; OPTS of b f n r), default the whole line. Records: "
       "OFFSET:LENGTH (bytes, "
       "compared unsigned) or OFFSET:TYPE[:desc] with TYPE u8 u16 u32 u64 i8 i16 i32 i64 f32 f64, "
       "little-endian, or with a 'be' suffix big-endian (default key: the whole record)")
      ("format", po::value(&o.format)->value_name("NAME"),
       "a known record layout: 'gensort' (100-byte records, 10-byte key at offset 0)")
      ("reverse,r", po::bool_switch(&o.reverse), "reverse the order (equal keys still keep input order)")
      ("unique,u", po::bool_switch(&o.unique), "keep only the first record of each run of equal keys")
      ("stable,s", po::bool_switch(&o.stable), "lines: when the keys tie, keep input order (no comparison of whole lines); records: "
       "accepted for GNU sort's sake, the sort is always stable")
      ("check,c", po::bool_switch(&o.check), "check whether the input is sorted; exit 1 if not")
      (",C", po::bool_switch(&o.check_quiet), "like -c, but report nothing")
      ("merge,m", po::bool_switch(&o.merge), "merge inputs that are already sorted")
      ("memory,S", po::value(&o.memory)->value_name("SIZE"),
       "host memory budget: a number with suffix b, K, M, G, T, P, E (bare number: K) or % of RAM "
       "(default 50%)")
      ("temporary-directory,T", po::value(&o.temp_dir)->value_name("DIR"),
       "directory for temporary files (default: $TMPDIR, else /tmp)")
      ("parallel", po::value(&o.parallel)->value_name("N"),
       "use N threads (default: all cores; at most 4 per hardware thread)")
      ("batch-size", po::value(&o.batch_size)->value_name("N"),
       "merge at most N runs or inputs at once, merging more in passes through temporary files "
       "(at least 2; default: what memory and the open-file limit allow)")
      ("backend", po::value(&o.backend)->value_name("NAME"),
       "auto (GPU when a usable one is present, else CPU), gpu, cpu, or hybrid (GPU and CPU "
       "sort pieces of each chunk side by side) (default auto)")
      ("algorithm", po::value(&o.algorithm)->value_name("NAME"),
       "the GPU's chunk sort: auto (the fastest measured: CUB), cub, radix (gsort's own LSD radix "
       "sort) or merge (gsort's own merge sort); output is identical whichever is chosen")
      ("device", po::value(&o.device)->value_name("N"), "the CUDA device to use (default 0)")
      ("exchange", po::value(&o.exchange)->value_name("NAME"),
       "under mpirun -np N, how ranks trade records: shm (copies through MPI shared memory; "
       "every rank on one host), mpi (host buffers through MPI), nccl (between the ranks' GPUs "
       "through NCCL) or auto (shm where every rank shares one host, else mpi) (default auto)")
      ("gpu-memory", po::value(&o.gpu_memory)->value_name("SIZE"),
       "device memory gsort may take (default: most of the free memory)")
      ("compress-temp", po::value(&o.compress_temp)->value_name("WHEN")->implicit_value(kImplicit, "on"),
       "compress the runs spilled to the temporary directory with zstd: auto (the default: when a sample "
       "of the data shrinks 1.5x or more and the runs outgrow the page cache onto a temp device slower than "
       "the compressor, measured; -v says why), on, off, or a zstd LEVEL (on is level 1)")
      ("spill-streams", po::value(&o.spill_streams)->value_name("N"),
       "write each spilled run as N files at once (default 8; fewer under a small -S)")
      ("page-cache", po::value(&o.page_cache)->value_name("WHAT"),
       "drop (the default): once read, drop the pages of the input that gsort itself brought into the "
       "page cache (what was cached before stays); keep: leave them there")
      ("compress-output", po::value(&o.compress_output)->value_name("LEVEL")->implicit_value(kImplicit, "by format"),
       "compress the output in the format its name's suffix names: .gz (gzip, LEVEL 1-9, default 6), "
       ".bz2 (bzip2, 1-9: blocks of LEVEL x 100 kB, default 9), .xz (xz, 0-9, default 6), else zstd "
       "(.zst, other names, standard output; zstd's levels, default 3). Those suffixes imply this option; "
       "one of a format gsort cannot write (.lz4, .zip, ...) is an error. Inputs compressed with zstd, "
       "gzip, bzip2 or xz are recognised and decompressed without any option")
      ("verify", po::bool_switch(&o.verify),
       "check the output against the input before it is put in place: order, record count, and a "
       "checksum of all records (costs about 10% of an in-memory sort)")
      ("no-verify", po::bool_switch(&o.no_verify), "do not --verify (the default)")
      ("fsync", po::bool_switch(&o.fsync),
       "flush the output (and its directory entry) to stable storage before exiting: a crash "
       "after gsort succeeds cannot lose it")
      ("progress", po::bool_switch(&o.progress),
       "show a progress line on standard error even when it is not a terminal")
      ("no-progress", po::bool_switch(&o.no_progress), "never show the progress line (default: only on a terminal)")
      ("stats", po::value(&o.stats)->value_name("FILE"),
       "write statistics of the run as one JSON object to FILE (- for standard error)")
      ("trace", po::value(&o.trace)->value_name("FILE"),
       "write the timeline of the run's phases, per thread, to FILE as a Chrome trace (chrome://tracing, ui.perfetto.dev)")
      ("output-parts", po::bool_switch(&o.output_parts),
       "-o names a directory: write part-00000, part-00001, ... there (one per rank under mpirun -np N); "
       "their concatenation is the sorted output")
      ("to-terminal", po::bool_switch(&o.to_terminal),
       "write the binary output to standard output even when it is a terminal (refused otherwise)")
      ("verbose,v", po::bool_switch(&o.verbose), "report sizes and phase timings on standard error")
      ("help,h", po::bool_switch(&o.help), "show this help and exit")
      ("version", po::bool_switch(&o.version), "show the version and exit");
  add_line_options(d, o.lines);
  return d;
}

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

// Whether an argument reads as a zstd level ("19", "-5").
bool looks_like_level(const char* a) {
  if (*a == '-') ++a;
  if (*a == '\0') return false;
  for (; *a; ++a) {
    if (*a < '0' || *a > '9') return false;
  }
  return true;
}

// The arguments after the program name, with a bare --compress-temp or
// --compress-output spelled --compress-temp=default: Program_options would
// otherwise take the next argument (an input file) as the level. A level
// after a blank (--compress-output 19) is refused, saying how to write it.
std::vector<std::string> with_explicit_levels(int argc, const char* const* argv) {
  std::vector<std::string> args;
  bool options_ended = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--") options_ended = true;
    if (!options_ended && (a == "--compress-temp" || a == "--compress-output")) {
      if (i + 1 < argc && looks_like_level(argv[i + 1])) {
        throw UsageError(a + " takes its level after '=': write " + a + "=" + argv[i + 1] + " (or ./" +
                         argv[i + 1] + " for an input file of that name)");
      }
      a += std::string("=") + kImplicit;
    }
    args.push_back(std::move(a));
  }
  return args;
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
  if (!o.format.empty()) {
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
  if (o.merge) {
    if (c.mode == Mode::kCheck) throw UsageError("--check and --merge cannot be combined");
    c.mode = Mode::kMerge;
  }
  if (c.mode == Mode::kCheck && c.inputs.size() > 1) throw UsageError("--check takes one input");
  // As GNU sort: -c writes nothing, so an -o it would ignore is a mistake.
  if (c.mode == Mode::kCheck && o.output_given) throw UsageError("--check and --output cannot be combined");
  // Read once, standard input cannot be two inputs (it used to be split
  // between them, with a size that was not true of either).
  if (std::count(c.inputs.begin(), c.inputs.end(), "-") > 1) throw UsageError("standard input given twice as an input");
}

// The host's share: memory budget, temp directory, threads.
void set_host_resources(const RawOptions& o, SortConfig& c) {
  if (o.memory_given) {  // -S '' is an invalid size, not the default
    c.memory_bytes = parse_size(o.memory, "--memory");
    if (c.memory_bytes == 0) throw UsageError("--memory must be more than 0");
  } else {
    const uint64_t ram = physical_memory_bytes();
    c.memory_bytes = ram ? ram / 2 : (1ull << 30);
  }
  c.temp_dir = o.temp_dir.empty() ? default_temp_dir() : o.temp_dir;
  if (o.parallel < 0 || o.parallel > 4096) {
    throw UsageError("--parallel " + std::to_string(o.parallel) + " is out of range (0 to 4096; 0 = all cores)");
  }
  c.threads_requested = o.parallel ? static_cast<unsigned>(o.parallel) : default_threads();
  // The pool does data-parallel work: past a few threads per core they
  // only contend (4096 threads on 2 cores took 40 times as long).
  c.threads = std::min(c.threads_requested, kThreadsPerCore * default_threads());
  if (o.batch_size_given && o.batch_size < 2) {
    throw UsageError("--batch-size " + std::to_string(o.batch_size) + " is too small (at least 2)");
  }
  c.batch_size = static_cast<uint64_t>(o.batch_size);
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
  if (!o.gpu_memory.empty()) {
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

// --verify, --fsync, --progress, --stats, --trace. Of --verify and
// --no-verify (--progress and --no-progress) only the last one given is
// left (repeated_options.h).
void set_reporting(const RawOptions& o, SortConfig& c) {
  c.verify = o.verify;
  c.fsync = o.fsync;
  c.progress = o.progress ? ProgressMode::kOn : o.no_progress ? ProgressMode::kOff : ProgressMode::kAuto;
  if (o.stats.empty() && o.stats_given) throw UsageError("--stats needs a file name (or - for standard error)");
  c.stats_path = o.stats;
  if (o.trace_given && (o.trace.empty() || o.trace == "-")) throw UsageError("--trace needs a file name");
  c.trace_path = o.trace;
}

// The options, checked in this order (the first error is the one reported).
SortConfig to_config(const RawOptions& o) {
  SortConfig c;
  c.inputs = o.inputs.empty() ? std::vector<std::string>{"-"} : o.inputs;
  c.output = o.output.empty() ? throw UsageError("--output needs a file name") : o.output;
  c.output_parts = o.output_parts;
  c.to_terminal = o.to_terminal;
  if (c.output_parts && c.output == "-") throw UsageError("--output-parts needs -o DIR");
  c.memory_is_default = o.memory.empty();
  refuse_unsupported_gnu_options(o.lines);
  if (!o.record_size_given && o.format.empty()) {  // text lines, the default
    set_mode(o, c);
    set_line_options(o.lines, o.keys, o.stable, c);
  } else {
    refuse_line_options_for_records(o.lines);
    set_record_layout(o, c);
    set_mode(o, c);
  }
  set_host_resources(o, c);
  c.verbose = o.verbose;
  set_backend(o, c);
  set_spilling(o, c);
  set_compression(o, c);
  set_reporting(o, c);
  return c;
}

// --help, --version: a failed write (> /dev/full) is an error, as in GNU
// tools, not a silent exit 0.
void print_to_stdout(const std::string& text) {
  errno = 0;
  const bool ok = std::fputs(text.c_str(), stdout) >= 0 && std::fflush(stdout) == 0;
  if (!ok) throw IoError("cannot write " + describe_errno("standard output", errno ? errno : EIO));
}

}  // namespace

std::string help_text() {
  RawOptions o;
  return format_help(visible_options(o));
}

// Boost.Program_options builds its error messages by replacing %value%,
// %option% and the like with the user's words, again and again while any
// is found: an argument that itself holds one (found by options_fuzz) made
// that loop forever. Such an argument is refused before Boost sees it.
void refuse_message_placeholders(int argc, const char* const* argv) {
  static const char* const kPlaceholders[] = {"%value%", "%option%", "%canonical_option%", "%original_token%",
                                              "%prefix_option%"};
  for (int i = 1; i < argc; ++i) {
    for (const char* p : kPlaceholders) {
      if (std::strstr(argv[i], p) != nullptr) {
        throw UsageError(std::string("argument '") + argv[i] + "' contains " + p + ", which gsort cannot take");
      }
    }
  }
}

ParsedCommand parse_command_line(int argc, const char* const* argv) {
  refuse_message_placeholders(argc, argv);
  RawOptions o;
  po::options_description all = visible_options(o);
  all.add_options()("input", po::value(&o.inputs)->composing(), "");
  add_refused_gnu_options(all, o.lines);
  po::positional_options_description positional;
  positional.add("input", -1);
  po::variables_map vm;
  try {
    const int style = po::command_line_style::default_style & ~po::command_line_style::allow_guessing;
    po::parsed_options parsed = po::command_line_parser(with_explicit_levels(argc, argv))
                                    .options(all)
                                    .positional(positional)
                                    .style(style)
                                    .run();
    refuse_incompatible_tabs(parsed.options);
    keep_last_occurrences(parsed.options, {"key", "input"});
    po::store(parsed, vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw UsageError(std::string(e.what()) + " (try 'gsort --help')");
  }
  o.record_size_given = vm.count("record-size") > 0;
  o.batch_size_given = vm.count("batch-size") > 0;
  o.stats_given = vm.count("stats") > 0;
  o.trace_given = vm.count("trace") > 0;
  o.output_given = vm.count("output") > 0;
  o.memory_given = vm.count("memory") > 0;
  o.compress_temp_given = vm.count("compress-temp") > 0;
  o.spill_streams_given = vm.count("spill-streams") > 0;
  o.compress_output_given = vm.count("compress-output") > 0;
  note_given(vm, o.lines);
  ParsedCommand cmd;
  if (o.help || o.version) {
    print_to_stdout(o.help ? help_text() : std::string("gsort ") + GSORT_VERSION + "\n" + build_info_text());
    cmd.done = true;
    return cmd;
  }
  cmd.config = to_config(o);
  return cmd;
}

}  // namespace gsort
