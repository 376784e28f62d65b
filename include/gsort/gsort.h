// gsort as a C++ library: sort files, file descriptors or a buffer of
// fixed-size binary records by a key inside each record, or files of text
// lines as LC_ALL=C sort does, on the GPU when a usable one is present,
// with the command line's options and guarantees.
//
//   #include <gsort/gsort.h>
//
//   gsort::Options o;
//   o.record_size = 16;
//   o.keys = {"0:u64"};                        // as gsort --key 0:u64
//   gsort::SortResult r = gsort::sort_files({"in.bin"}, "out.bin", o);
//
// Without a record size (nor --format in Options::arguments) the files
// hold text lines: keys are then GNU sort's ({"2,2n", "1,1"}), and
// arguments take its -t, -n and the like ({"-t", ","}).
//
// Link with CMake's find_package(gsort) and the target gsort::gsort, or with
// `pkg-config --cflags --libs gsort`. Every function throws a gsort::Error
// subclass (gsort/errors.h) on failure; nothing is printed unless
// Options::verbose asks for gsort's -v messages on standard error. The
// functions are safe to call from several threads at once.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gsort/errors.h"

namespace gsort {

// The library's version ("0.2.0").
std::string version();

// What the library was built with, one item per line, as `gsort --version`
// prints it after its first line (GPU support and architectures, MPI, zstd,
// Boost).
std::string build_info();

// Which sorter sorts the chunks: kAuto takes a usable GPU when the data is
// large enough to pay for its start-up, the CPU otherwise; kGpu and kHybrid
// fail with DeviceError where no GPU can be used.
enum class Backend { kAuto, kCpu, kGpu, kHybrid };

// How to sort: the options of the command line (gsort --help, man gsort),
// the common ones as fields and any other in `arguments`.
struct Options {
  uint32_t record_size = 0;   // bytes per record (--record-size); 0, and no --format
                              // in `arguments`: the inputs are text lines
  std::vector<std::string> keys;  // --key fields, most significant first: for records
                                  // in gsort's key syntax ("0:u64", "8:i32be:desc",
                                  // "16:10": 10 bytes at offset 16), for lines GNU
                                  // sort's POS1[,POS2] ("2,2n"); empty: the whole
                                  // record or line
  bool reverse = false;   // -r: descending; equal keys still keep their input order
  bool unique = false;    // -u: keep only the first record of each run of equal keys
  Backend backend = Backend::kAuto;  // --backend
  int device = 0;                    // --device: which GPU
  uint64_t memory_bytes = 0;  // -S: host memory to use; 0: gsort's default
  std::string temp_dir;       // -T: where runs are spilled; empty: $TMPDIR, else /tmp
  unsigned threads = 0;       // --parallel; 0: one per core
  bool verify = false;        // --verify: check the output's order, count and checksum
  bool verbose = false;       // -v: what gsort does, on standard error
  // Text lines: the locale they sort in, for every category ("en_US.UTF-8",
  // "C"); empty: the environment's, as sort finds it (LC_ALL, LC_COLLATE
  // and the other LC_ variables, LANG). A locale that is not installed is a
  // UsageError.
  std::string locale;
  // Any other option exactly as on the command line, for example
  // {"--format", "gensort"}, {"--compress-temp"}, {"--stats", "run.json"}.
  // Input and output names, -o, --merge, --check and --help are not
  // options here: the functions below say what to do.
  std::vector<std::string> arguments;
};

// What a sort did.
struct SortResult {
  uint64_t input_records = 0;
  uint64_t output_records = 0;  // fewer than input_records only with unique
  uint64_t temp_bytes = 0;      // bytes written to spilled runs (0: sorted in memory)
  std::string backend;          // what sorted: "cpu (16 threads)", "gpu 0: NVIDIA H100 80GB HBM3"
  double seconds = 0;           // wall time of the call
};

// Sorts the records of `inputs`, read one after another as one stream
// ("-" is standard input), into `output` ("-" is standard output). Inputs
// compressed with zstd are decompressed; an output named *.zst is written
// compressed. As on the command line, a file at `output` is replaced only
// when the whole sort succeeded (it may be one of the inputs), and
// temporary files are removed whatever happens.
SortResult sort_files(const std::vector<std::string>& inputs, const std::string& output, const Options& options);

// Merges inputs that are each already sorted by the options' key into
// `output` (gsort --merge). An input found out of order is a DataError.
SortResult merge_files(const std::vector<std::string>& inputs, const std::string& output, const Options& options);

// Sorts what can be read from the open descriptor `input_fd` (a pipe, a
// socket, or a regular file from its current offset) to its end, writing
// the sorted records to `output_fd`. Neither descriptor is closed.
SortResult sort_fd(int input_fd, int output_fd, const Options& options);

// Sorts `count` records of options.record_size bytes (not 0) at `records` in place,
// stably, on the GPU when options.backend allows and the buffer is large
// enough to pay for it. Returns the number of records kept: `count`, or
// with unique the number of distinct keys, kept at the front in order.
// Needs host memory for a second copy of the buffer while it works.
// options.arguments may not hold file options (--stats, --trace).
uint64_t sort_records(void* records, uint64_t count, const Options& options);

// Whether a file is in order by the options' key (gsort --check).
struct CheckReport {
  bool sorted = true;
  uint64_t records = 0;          // records read: all, or up to the first out of order
  uint64_t first_disorder = 0;   // when not sorted: the record out of order, counting from 1
  uint64_t first_disorder_offset = 0;  // its byte offset in the (decompressed) input
};
CheckReport check_file(const std::string& input, const Options& options);

}  // namespace gsort
