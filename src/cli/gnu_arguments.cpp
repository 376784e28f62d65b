#include "src/cli/gnu_arguments.h"

#include <boost/program_options/errors.hpp>
#include <boost/program_options/value_semantic.hpp>

#include "src/cli/gnu_long_names.h"
#include "src/cli/obsolete_keys.h"
#include "src/cli/option_table.h"
#include "src/cli/size_parse.h"
#include "src/cli/sort_counts.h"
#include "src/core/errors.h"

namespace po = boost::program_options;

namespace gsort {
namespace {

// Whether an argument reads as a zstd level ("19", "-5").
bool looks_like_level(const std::string& a) {
  const size_t digits = !a.empty() && a[0] == '-' ? 1 : 0;
  return a.size() > digits && a.find_first_not_of("0123456789", digits) == std::string::npos;
}

// Whether the option that `name` names ("field-separator", a prefix of
// one, or "-t") needs a value. False for no option or an ambiguous prefix:
// the parser reports those.
bool takes_value(const po::options_description& all, const std::string& name) {
  try {
    const po::option_description* d = all.find_nothrow(name, true);
    return d && d->semantic()->min_tokens() > 0;
  } catch (const po::error&) {
    return false;
  }
}

// How many words the option word `a` takes, itself included: 2 when its
// value is the next word. In a cluster of short options (-nrk), the first
// that needs a value takes the rest of the word, or the next word.
size_t option_words(const po::options_description& all, const std::string& a) {
  if (a.rfind("--", 0) == 0) return a.find('=') == std::string::npos && takes_value(all, a.substr(2)) ? 2 : 1;
  for (size_t k = 1; k < a.size(); ++k) {
    if (takes_value(all, std::string("-") + a[k])) return k + 1 == a.size() ? 2 : 1;
  }
  return 1;
}

// The first word that is neither an option nor an option's value ("-"
// is an operand), or "--".
size_t first_operand(const std::vector<std::string>& args, const po::options_description& all) {
  size_t i = 0;
  while (i < args.size() && args[i] != "--" && args[i].size() > 1 && args[i][0] == '-') i += option_words(all, args[i]);
  return i;
}

// "--compress-temp" followed by `next`, as Boost should read it.
std::string with_explicit_level(const std::string& a, const std::string* next) {
  if (next && looks_like_level(*next)) {
    throw UsageError(a + " takes its level after '=': write " + a + "=" + *next + " (or ./" + *next +
                     " for an input file of that name)");
  }
  return a + "=" + kImplicit;
}

// Walks the words as getopt does, rewriting what sort means otherwise
// than Boost would read it (gnu_arguments.h's first five points).
class SortWords {
 public:
  SortWords(const std::vector<std::string>& args, const po::options_description& all, bool posixly_correct)
      : args_(args), all_(all), posixly_correct_(posixly_correct) {}

  GnuArguments run() {
    for (i_ = 0; i_ < args_.size(); ++i_) {
      const std::string& a = args_[i_];
      if (ended_) {
        out_.words.push_back(a);
      } else if (a == "--") {
        ended_ = true;
        out_.words.push_back(a);
      } else if (a.rfind("--", 0) == 0) {
        long_option(a);
      } else if (a.size() > 1 && a[0] == '-') {
        short_options(a);
      } else {
        operand(a);
      }
    }
    return std::move(out_);
  }

 private:
  const std::string* next() const { return i_ + 1 < args_.size() ? &args_[i_ + 1] : nullptr; }

  // The option's value is the next word: copied as it is.
  void take_next_as_value() {
    if (const std::string* n = next()) {
      out_.words.push_back(*n);
      ++i_;
    }
  }

  void long_option(const std::string& a) {
    const size_t eq = a.find('=');
    const std::string name = a.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
    std::string full = gnu_long_option(name);
    // sort's exact names, then gsort's, then prefixes of sort's names.
    if (full.empty() || (full != name && all_.find_nothrow(name, false) != nullptr)) full = name;
    if (full == "check") {
      out_.words.push_back(eq == std::string::npos ? "--check" : check_option_for(a.substr(eq + 1)));
      return;
    }
    const std::string* value = eq != std::string::npos ? nullptr : next();
    const std::string given = eq != std::string::npos ? a.substr(eq + 1) : value ? *value : "";
    if (full == "sort" && (eq != std::string::npos || value)) {
      out_.words.push_back(sort_option_for(given));
      if (eq == std::string::npos) ++i_;
      return;
    }
    if (full == "key") ++keys_;
    if (eq != std::string::npos || (value && takes_value(all_, full))) {
      check_value(long_name(full), gnu_long_option(name) == "memory" ? "--buffer-size" : "--memory", given);
    }
    out_.words.push_back("--" + full + (eq == std::string::npos ? "" : a.substr(eq)));
    if (eq == std::string::npos && takes_value(all_, full)) take_next_as_value();
  }

  // The long name of the option `name` (a prefix of it) names; empty for
  // none, or for several (the parser reports those).
  std::string long_name(const std::string& name) const {
    try {
      const po::option_description* d = all_.find_nothrow(name, true);
      return d ? d->long_name() : "";
    } catch (const po::error&) {
      return "";
    }
  }

  // sort checks the values of -S, --parallel and --batch-size each time
  // it meets one, so that a wrong one is refused though a later one would
  // replace it (-S 1x -S 1K); the last is the one kept
  // (repeated_options.h). spelled: -S's name as given.
  static void check_value(const std::string& option, const std::string& spelled, const std::string& value) {
    if (option == "memory") parse_size(value, spelled);
    if (option == "parallel") parallel_threads(value);
    if (option == "batch-size") merge_batch_size(value);
  }

  // A cluster (-nrk2): -y and what it takes are dropped; the first option
  // with a value takes the rest of the word, or the next word.
  void short_options(const std::string& a) {
    std::string kept = "-";
    for (size_t k = 1; k < a.size(); ++k) {
      if (a[k] == 'y') {
        // sort ignores -y's value: the rest of the word, or a next word of
        // digits only (another next word is an operand).
        const std::string* n = next();
        if (k + 1 == a.size() && !n) throw UsageError("option requires an argument -- 'y'");
        if (k + 1 == a.size() && n->find_first_not_of("0123456789") == std::string::npos) ++i_;
        break;
      }
      kept += a[k];
      if (!takes_value(all_, std::string("-") + a[k])) continue;
      if (a[k] == 'k') ++keys_;
      const std::string* value = k + 1 < a.size() ? nullptr : next();
      if (a[k] == 'S' && (k + 1 < a.size() || value)) check_value("memory", "-S", value ? *value : a.substr(k + 1));
      kept += a.substr(k + 1);
      if (kept.size() > 1) out_.words.push_back(kept);
      if (k + 1 == a.size()) take_next_as_value();
      return;
    }
    if (kept.size() > 1) out_.words.push_back(kept);
  }

  void operand(const std::string& a) {
    if (a.size() > 1 && a[0] == '+') {
      const std::string* n = next();
      const bool minus_pos = n && looks_like_minus_pos(*n);
      // As sort: once a +POS1 -POS2 has been met, a +POS1 alone is a key too.
      traditional_ |= minus_pos && !posixly_correct_;
      if (traditional_) {
        if (std::optional<ObsoleteKey> key = parse_obsolete_key(a, minus_pos ? n : nullptr)) {
          out_.words.push_back("--key=" + key->spec);
          out_.obsolete_keys.push_back(ObsoleteKeyNote{keys_++, key->warning});
          if (key->took_minus) ++i_;
          return;
        }
      }
    }
    out_.words.push_back(a);
    // As getopt under POSIXLY_CORRECT: options end at the first operand.
    if (posixly_correct_) ended_ = true;
  }

  const std::vector<std::string>& args_;
  const po::options_description& all_;
  const bool posixly_correct_;
  GnuArguments out_;
  size_t i_ = 0;
  size_t keys_ = 0;
  bool ended_ = false;
  bool traditional_ = obsolete_keys_by_default();  // a +POS1 alone is a key
};

}  // namespace

GnuArguments gnu_arguments(int argc, const char* const* argv, const po::options_description& all,
                           bool posixly_correct) {
  GnuArguments sorted = SortWords(std::vector<std::string>(argv + 1, argv + argc), all, posixly_correct).run();
  std::vector<std::string>& args = sorted.words;
  if (posixly_correct) {
    const size_t at = first_operand(args, all);
    if (at < args.size() && args[at] != "--") args.insert(args.begin() + static_cast<std::ptrdiff_t>(at), "--");
  }
  std::vector<std::string> out;
  bool options_ended = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (options_ended || a.rfind("--", 0) != 0) {
      out.push_back(a);
      continue;
    }
    if (a == "--") {
      options_ended = true;
      out.push_back(a);
    } else if (a == "--decompress") {
      out.push_back(a + "=" + kImplicit);
    } else if (a == "--compress-temp" || a == "--compress-output") {
      out.push_back(with_explicit_level(a, i + 1 < args.size() ? &args[i + 1] : nullptr));
    } else if (a.find('=') == a.size() - 1 && takes_value(all, a.substr(2, a.size() - 3))) {
      out.push_back(a.substr(0, a.size() - 1));  // --NAME= : an empty value
      out.emplace_back();
    } else {
      out.push_back(a);
    }
  }
  sorted.words = std::move(out);
  return sorted;
}

}  // namespace gsort
