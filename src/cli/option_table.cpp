#include "src/cli/option_table.h"

#include <boost/program_options.hpp>

namespace po = boost::program_options;

namespace gsort {
namespace {

// What to sort and how: the input and keys, memory and temporary files,
// the backends.
void add_sort_options(po::options_description& d, RawOptions& o) {
  d.add_options()
      ("output,o", po::value(&o.output)->value_name("FILE"),
       "write the result to FILE (default: standard output); FILE may be one of the inputs")
      ("record-size", po::value(&o.record_size)->value_name("N"), "records are N bytes long")
      ("key,k", po::value(&o.keys)->value_name("SPEC")->composing(),
       "sort by this key; repeat for tie-breaking keys. Lines: GNU sort's POS1[,POS2], POS is F[.C][OPTS] "
       "(field F, character C, from 1; OPTS of b d f g h i M n R r V), default the whole line. Records: "
       "OFFSET:LENGTH (bytes, "
       "compared unsigned) or OFFSET:TYPE[:desc] with TYPE u8 u16 u32 u64 i8 i16 i32 i64 f32 f64, "
       "little-endian, or with a 'be' suffix big-endian (default key: the whole record)")
      ("format", po::value(&o.format)->value_name("NAME"),
       "a known record layout: 'gensort' (100-byte records, 10-byte key at offset 0)")
      ("reverse,r", po::bool_switch(&o.reverse), "reverse the order (equal keys still keep input order)")
      ("unique,u", po::bool_switch(&o.unique), "keep only the first record of each run of equal keys")
      ("stable,s", po::bool_switch(&o.stable), "lines: when the keys tie, keep input order (no comparison of whole "
       "lines); records: accepted for GNU sort's sake, the sort is always stable")
      ("check,c", po::bool_switch(&o.check),
       "check whether the input is sorted; exit 1 if not (GNU sort's --check=quiet or silent is -C, "
       "--check=diagnose-first is -c)")
      (",C", po::bool_switch(&o.check_quiet), "like -c, but report nothing")
      ("merge,m", po::bool_switch(&o.merge), "merge inputs that are already sorted")
      ("memory,S", po::value(&o.memory)->value_name("SIZE"),
       "host memory budget: a number with suffix b, K, M, G, T, P, E (bare number: K) or % of RAM "
       "(default 50%); --buffer-size (GNU sort's name) is the same")
      ("temporary-directory,T", po::value(&o.temp_dir)->value_name("DIR"),
       "directory for temporary files (default: $TMPDIR, else /tmp)")
      ("parallel", po::value(&o.parallel)->value_name("N"),
       "use N threads (default: all cores; at most 4 per hardware thread)")
      ("batch-size", po::value(&o.batch_size)->value_name("N"),
       "merge at most N runs or inputs at once, merging more in passes through temporary files "
       "(at least 2; default: what memory and the open-file limit allow)")
      ("backend", po::value(&o.backend)->value_name("NAME"),
       "auto (records: GPU when a usable one is present, else CPU; text lines: GPU for the chunks where that pays), gpu, cpu, or "
       "hybrid (GPU and CPU sort pieces of each chunk side by side) (default auto)")
      ("algorithm", po::value(&o.algorithm)->value_name("NAME"),
       "the GPU's chunk sort: auto (the fastest measured: CUB), cub, radix (gsort's own LSD radix "
       "sort) or merge (gsort's own merge sort); output is identical whichever is chosen")
      ("device", po::value(&o.device)->value_name("N"), "the CUDA device to use (default 0)")
      ("exchange", po::value(&o.exchange)->value_name("NAME"),
       "under mpirun -np N, how ranks trade records: shm (copies through MPI shared memory; "
       "every rank on one host), mpi (host buffers through MPI), nccl (between the ranks' GPUs "
       "through NCCL) or auto (shm where every rank shares one host, else mpi) (default auto)")
      ("gpu-memory", po::value(&o.gpu_memory)->value_name("SIZE"),
       "device memory gsort may take (default: most of the free memory); an input larger than -S that "
       "fits it is sorted there whole, in one pass, with no temporary files")
      ("compress-temp", po::value(&o.compress_temp)->value_name("WHEN")->implicit_value(kImplicit, "on"),
       "compress the runs spilled to the temporary directory with zstd: auto (the default: when a sample "
       "of the data shrinks 1.5x or more and the runs outgrow the page cache onto a temp device where "
       "writing and reading them back compressed takes less time, measured; -v says why), on, off, or a "
       "zstd LEVEL (on is level 1)")
      ("spill-streams", po::value(&o.spill_streams)->value_name("N"),
       "write each spilled run as N files at once (default 8 for records, 1 for text lines; fewer under a "
       "small -S)")
      ("page-cache", po::value(&o.page_cache)->value_name("WHAT"),
       "drop (the default): once read, drop the pages of the input that gsort itself brought into the "
       "page cache (what was cached before stays); keep: leave them there");
}

// What to write and how safely: the output's format, its verification, the
// room it needs, its durability.
void add_output_options(po::options_description& d, RawOptions& o) {
  d.add_options()
      ("compress-output", po::value(&o.compress_output)->value_name("LEVEL")->implicit_value(kImplicit, "by format"),
       "compress the output in the format its name's suffix names: .gz (gzip, LEVEL 1-9, default 6), "
       ".bz2 (bzip2, 1-9: blocks of LEVEL x 100 kB, default 9), .xz (xz, 0-9, default 6), else zstd "
       "(.zst, other names, standard output; zstd's levels, default 3). Those suffixes imply this option; "
       "one of a format gsort cannot write (.lz4, .zip, ...) is an error")
      ("decompress", po::value(&o.decompress)->value_name("WHEN")->implicit_value(kImplicit, "auto"),
       "decode inputs by their content too: auto (bare --decompress) decodes any input, standard input "
       "included, that starts with the magic of zstd, gzip, bzip2 or xz; no (the default) decodes only "
       "inputs named *.zst, *.gz, *.bz2 or *.xz, and reads every other input as it is")
      ("verify", po::bool_switch(&o.verify),
       "check the output against the input before it is put in place: order, record count, and a "
       "checksum of all records (costs about 10% of an in-memory sort)")
      ("no-verify", po::bool_switch(&o.no_verify), "do not --verify (the default)")
      ("no-space-check", po::bool_switch(&o.no_space_check),
       "start even where -T's or the output's file system has less room free than the sort will write there")
      ("fsync", po::bool_switch(&o.fsync),
       "flush the output (and its directory entry) to stable storage before exiting: a crash "
       "after gsort succeeds cannot lose it");
}

// What gsort says of the run, while it runs and after: progress, statistics,
// the timeline.
void add_report_options(po::options_description& d, RawOptions& o) {
  d.add_options()
      ("progress", po::bool_switch(&o.progress),
       "show a progress line on standard error even when it is not a terminal")
      ("no-progress", po::bool_switch(&o.no_progress), "never show the progress line (default: on a terminal gsort neither reads nor prints to)")
      ("stats", po::value(&o.stats)->value_name("FILE"),
       "write statistics of the run as one JSON object to FILE (- for standard error)")
      ("trace", po::value(&o.trace)->value_name("FILE"),
       "write the timeline of the run's phases, per thread, to FILE as a Chrome trace (chrome://tracing, ui.perfetto.dev)");
}

// Where else the output may go: a directory of parts, a terminal.
void add_destination_options(po::options_description& d, RawOptions& o) {
  d.add_options()
      ("output-parts", po::bool_switch(&o.output_parts),
       "-o names a directory: write part-00000, part-00001, ... there (one per rank under mpirun -np N); "
       "their concatenation is the sorted output")
      ("to-terminal", po::bool_switch(&o.to_terminal),
       "write the binary output to standard output even when it is a terminal (refused otherwise)");
}

// What else gsort may say: sizes and timings as it sorts, or its help or
// version instead of sorting.
void add_message_options(po::options_description& d, RawOptions& o) {
  d.add_options()
      ("verbose,v", po::bool_switch(&o.verbose), "report sizes and phase timings on standard error")
      ("help", po::bool_switch(&o.help), "show this help and exit")
      ("version", po::bool_switch(&o.version), "show the version and exit");
}

// The rest of GNU sort's interface for lines: its notes on the keys, its
// list of inputs.
void add_gnu_interface_options(po::options_description& d, RawLineOptions& o) {
  d.add_options()
      ("debug", po::bool_switch(&o.debug),
       "lines: annotate the part of each line used to sort (as GNU sort does), and warn on stderr about "
       "questionable usage; standard output only, not with -o or -c")
      ("files0-from", po::value(&o.files0_from)->value_name("F"),
       "read the inputs from the names in file F, each ended by a NUL; F - reads them from standard input")
      ("compress-program", po::value(&o.compress_program)->value_name("PROG"),
       "compress temporary files with PROG, and read them back with PROG -d (as GNU sort does); "
       "zstd inside gsort (--compress-temp) is then off");
}

// Text lines' own options (GNU sort's), shown in --help.
void add_line_options(po::options_description& d, RawLineOptions& o) {
  d.add_options()
      ("field-separator,t", po::value(&o.separator)->value_name("SEP"),
       "lines: fields are separated by the byte SEP (\\0 for NUL) rather than by runs of blanks")
      ("numeric-sort,n", po::bool_switch(&o.numeric),
       "lines: compare by numeric value: leading blanks, '-', digits, one '.', no exponent; no number is 0")
      ("human-numeric-sort,h", po::bool_switch(&o.human_numeric),
       "lines: compare human-readable sizes (2K 1.5G): by the unit right after the number (none < K/k < M "
       "< G < T < P < E < Z < Y < R < Q), then by the number as -n")
      ("ignore-case,f", po::bool_switch(&o.fold), "lines: fold lower case to upper case (bytes a-z only)")
      ("ignore-leading-blanks,b", po::bool_switch(&o.ignore_blanks),
       "lines: ignore the blanks at the start of each key field")
      ("zero-terminated,z", po::bool_switch(&o.zero_terminated), "lines: lines end with NUL, not newline");
}

// GNU sort's other orderings of lines (issue 37), shown in --help.
void add_ordering_options(po::options_description& d, RawLineOptions& o) {
  d.add_options()
      ("dictionary-order,d", po::bool_switch(&o.dictionary), "lines: compare only blanks, letters and digits")
      ("general-numeric-sort,g", po::bool_switch(&o.general_numeric),
       "lines: compare the number strtold reads (exponents, hex, inf, nan): no number first, then NaN, then "
       "by value")
      ("ignore-nonprinting,i", po::bool_switch(&o.nonprinting), "lines: compare only printable bytes (0x20-0x7E)")
      ("month-sort,M", po::bool_switch(&o.month), "lines: compare month names: (unknown) < JAN < ... < DEC")
      ("random-sort,R", po::bool_switch(&o.random),
       "lines: shuffle, but group identical keys (by a keyed hash of each key)")
      ("random-source", po::value(&o.random_source)->value_name("FILE"),
       "lines: -R's key: the first 16 bytes of FILE (the same FILE, the same order)")
      ("version-sort,V", po::bool_switch(&o.version_sort), "lines: natural sort of (version) numbers within text")
      // Rewritten into its letter's option as the words are read (gnu_arguments.h).
      ("sort", po::value<std::string>()->value_name("WORD"),
       "lines: sort by WORD: general-numeric -g, human-numeric -h, month -M, numeric -n, random -R, version -V");
}

}  // namespace

po::options_description visible_options(RawOptions& o) {
  po::options_description d("Options");
  add_sort_options(d, o);
  add_line_options(d, o.lines);
  add_ordering_options(d, o.lines);
  add_gnu_interface_options(d, o.lines);
  add_output_options(d, o);
  add_report_options(d, o);
  add_destination_options(d, o);
  add_message_options(d, o);
  return d;
}

}  // namespace gsort
