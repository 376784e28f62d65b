#include "src/gen/gen_options.h"

#include <boost/program_options.hpp>
#include <iostream>

#include "src/cli/help_page.h"
#include "src/core/errors.h"
#include "src/keys/key_layout.h"

namespace po = boost::program_options;

namespace gsort::gen {
namespace {


constexpr const char* kIntro = R"(Usage: gsort-gen --records N [OPTION]...
Write N records of test or benchmark data for gsort: fixed-size binary
records, or text lines (--format logs, csv). The output depends only on the
arguments and --seed: the same command writes the same bytes on any machine.
)";

constexpr const char* kDetails = R"(Layouts:
  --format gensort   the Sort Benchmark's 100-byte records, 10-byte key at
                     offset 0. Binary: key, 00 11, the row number as 32 hex
                     digits, 88 99 AA BB, 48 filler bytes, CC DD EE FF.
                     With --ascii (gensort -a): 10 printable key characters,
                     2 spaces, the row number as 32 hex digits, 2 spaces,
                     52 printable filler characters, then "\r\n".
  --format logs      text lines (--records counts lines), for gsort's line
                     mode: log-like lines of 20 to 300 bytes (a timestamp,
                     a level, a component, user= and took= fields, words).
  --format csv       text lines: id,word,integer,decimal (an id below 10^9,
                     one of eight words, an integer in [-10^6, 10^6), a
                     decimal in [0, 1000) with three places).
  --format raw       (default) --record-size bytes per record. The --key
                     fields get keys from --distribution; every other byte
                     is random filler, except that the record number (0, 1,
                     2, ...) is stored as a big-endian u64 in the first 8
                     bytes that no key field covers, when there are such.
                     Without --key the whole record is one byte-string key.
                     Key fields must not overlap.

Key specs (gsort's syntax): OFFSET:LENGTH for raw bytes compared with
memcmp, or OFFSET:TYPE[:desc] with TYPE one of u8 u16 u32 u64 i8 i16 i32 i64
f32 f64, little-endian unless suffixed with "be" (u32be). Several --key
options make one key, compared field by field.

Distributions (orders are gsort's: IEEE total order for floats, the whole
key field by field, descending fields inverted):
  uniform     random keys. Float keys are random bit patterns, and with
              --float-specials (the default) about 1 in 16 is a special
              value: NaN of either sign, +-inf, +-0.0, subnormals, extremes.
              With --float-specials=off they are finite numbers only.
  sorted      keys in non-decreasing order (strictly increasing while the
              key has room for N distinct values).
  reverse     keys in non-increasing order.
  equal       every record has the same key.
  few         keys drawn from --distinct K random values (default 16).
  lowentropy  each key byte is the AND of 3 random bytes, giving skewed,
              duplicate-heavy keys (as CUB's tests do).

Exit status: 0 success, 2 any error.
)";

bool parse_u64(const std::string& s, uint64_t& out) {
  if (s.empty() || s.size() > 20) return false;
  uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    const uint64_t digit = static_cast<uint64_t>(c - '0');
    if (v > (UINT64_MAX - digit) / 10) return false;
    v = v * 10 + digit;
  }
  out = v;
  return true;
}

uint64_t number_option(const po::variables_map& vm, const char* name) {
  const std::string& text = vm[name].as<std::string>();
  uint64_t v;
  if (!parse_u64(text, v)) {
    throw UsageError(std::string("--") + name + ": '" + text + "' is not a non-negative integer");
  }
  return v;
}

Distribution parse_distribution(const std::string& name) {
  if (name == "uniform") return Distribution::kUniform;
  if (name == "sorted") return Distribution::kSorted;
  if (name == "reverse") return Distribution::kReverse;
  if (name == "equal") return Distribution::kEqual;
  if (name == "few") return Distribution::kFew;
  if (name == "lowentropy") return Distribution::kLowEntropy;
  throw UsageError("--distribution: unknown '" + name +
                   "' (expected uniform, sorted, reverse, equal, few or lowentropy)");
}

RecordFormat parse_format(const std::string& name) {
  if (name == "raw") return RecordFormat::kRaw;
  if (name == "gensort") return RecordFormat::kGensort;
  if (name == "logs") return RecordFormat::kLogs;
  if (name == "csv") return RecordFormat::kCsv;
  throw UsageError("--format: unknown '" + name + "' (expected raw, gensort, logs or csv)");
}

// Key fields the generator fills must not share bytes, or one field's
// value would overwrite another's and the order would not hold.
void check_no_overlap(const std::vector<KeyField>& keys) {
  for (size_t i = 0; i < keys.size(); ++i) {
    for (size_t j = i + 1; j < keys.size(); ++j) {
      const uint64_t a0 = keys[i].offset, a1 = a0 + keys[i].length;
      const uint64_t b0 = keys[j].offset, b1 = b0 + keys[j].length;
      if (a0 < b1 && b0 < a1) {
        throw UsageError("keys '" + describe_key_field(keys[i]) + "' and '" +
                         describe_key_field(keys[j]) + "' overlap");
      }
    }
  }
}

const HelpPage& help_page() {
  static const HelpPage page{kIntro,
                             {{"What to write", {"records", "seed", "output"}},
                              {"Layout", {"format", "ascii", "record-size", "key"}},
                              {"Keys", {"distribution", "distinct", "float-specials", "no-float-specials"}},
                              {"Information", {"help", "version"}}},
                             kDetails};
  return page;
}

po::options_description make_options() {
  po::options_description opts;
  // Numbers are read as strings: Boost would accept "-1" for an unsigned.
  opts.add_options()
      ("help,h", "print this help and exit")
      ("version", "print the version and exit")
      ("records,n", po::value<std::string>()->value_name("N"), "number of records to write (required)")
      ("seed", po::value<std::string>()->value_name("S")->default_value("1"), "random seed (default 1)")
      ("output,o", po::value<std::string>()->value_name("FILE")->default_value("-"),
       "output file; - is standard output (the default)")
      ("format", po::value<std::string>()->value_name("F")->default_value("raw"),
       "raw (the default), gensort, logs or csv: below")
      ("ascii", po::bool_switch(), "gensort: the printable-line variant (gensort -a)")
      ("record-size", po::value<std::string>()->value_name("BYTES"),
       "raw: bytes per record, 1 to 67108864 (64 MiB, as gsort takes; required)")
      ("key", po::value<std::vector<std::string>>()->value_name("SPEC")->composing(),
       "raw: a key field, OFFSET:LENGTH or OFFSET:TYPE[:desc]; repeatable")
      ("distribution,d", po::value<std::string>()->value_name("D")->default_value("uniform"),
       "uniform (the default), sorted, reverse, equal, few or lowentropy: below")
      ("distinct", po::value<std::string>()->value_name("K")->default_value("16"),
       "few: number of distinct keys (default 16)")
      ("float-specials", po::value<bool>()->value_name("on|off")->default_value(true, "on")->implicit_value(true, "on"),
       "uniform: mix special values into float keys (default on)")
      ("no-float-specials", po::bool_switch(), "same as --float-specials=off");
  return opts;
}

void fill_layout(const po::variables_map& vm, GenOptions& out) {
  const bool has_size = vm.count("record-size") > 0;
  const bool has_keys = vm.count("key") > 0;
  if (is_text_format(out.format)) {
    if (has_size || has_keys || out.ascii) {
      throw UsageError("--format logs and csv write text lines: no --record-size, --key or --ascii");
    }
    return;
  }
  if (out.format == RecordFormat::kGensort) {
    if (has_keys) throw UsageError("--key cannot be used with --format gensort (its key is bytes 0-9)");
    if (has_size && number_option(vm, "record-size") != 100) {
      throw UsageError("--format gensort records are 100 bytes; drop --record-size");
    }
    out.record_size = 100;
    return;
  }
  if (out.ascii) throw UsageError("--ascii needs --format gensort");
  if (!has_size) throw UsageError("--record-size is required (or use --format gensort)");
  const uint64_t size = number_option(vm, "record-size");
  if (size == 0 || size > kMaxRecordSize) {
    throw UsageError("--record-size must be between 1 and " + std::to_string(kMaxRecordSize));
  }
  out.record_size = static_cast<uint32_t>(size);
  if (has_keys) {
    for (const std::string& spec : vm["key"].as<std::vector<std::string>>()) {
      out.keys.push_back(parse_key_spec(spec));
    }
    KeyLayout(out.keys, out.record_size, false);  // throws if a field reaches past the record
    check_no_overlap(out.keys);
  }
}

}  // namespace

bool parse_gen_options(int argc, char** argv, GenOptions& out) {
  const po::options_description opts = make_options();
  // Boost would drop stray arguments silently; catch them to reject them.
  po::options_description hidden;
  hidden.add_options()("stray", po::value<std::vector<std::string>>());
  po::options_description all;
  all.add(opts).add(hidden);
  po::positional_options_description positional;
  positional.add("stray", -1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc, argv).options(all).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw UsageError(std::string(e.what()) + " (see --help)");
  }
  if (vm.count("stray")) {
    throw UsageError("unexpected argument '" + vm["stray"].as<std::vector<std::string>>().front() +
                     "' (see --help)");
  }
  if (vm.count("help")) {
    std::cout << format_help_page(opts, help_page());
    return false;
  }
  if (vm.count("version")) {
    std::cout << "gsort-gen " << GSORT_VERSION << "\n";
    return false;
  }
  if (!vm.count("records")) throw UsageError("--records is required (see --help)");
  out.records = number_option(vm, "records");
  out.seed = number_option(vm, "seed");
  out.output = vm["output"].as<std::string>();
  if (out.output.empty()) throw UsageError("--output: empty file name");
  out.format = parse_format(vm["format"].as<std::string>());
  out.ascii = vm["ascii"].as<bool>();
  fill_layout(vm, out);
  out.distribution = parse_distribution(vm["distribution"].as<std::string>());
  out.distinct = number_option(vm, "distinct");
  if (out.distinct == 0) throw UsageError("--distinct must be at least 1");
  out.float_specials = vm["float-specials"].as<bool>() && !vm["no-float-specials"].as<bool>();
  return true;
}

}  // namespace gsort::gen
