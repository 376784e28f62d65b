#include "src/distributed/ranks/line_option_fields.h"

#include <string>

namespace gsort {
namespace {

std::string on_off(bool on) { return on ? "on" : "off"; }

std::string keys_text(const std::vector<std::string>& keys) {
  if (keys.empty()) return "the whole line";
  std::string s;
  for (const std::string& k : keys) s += (s.empty() ? "" : " ") + k;
  return s;
}

std::string separator_text(int separator) {
  return separator < 0 ? "blanks" : "byte " + std::to_string(separator);
}

}  // namespace

SharedFields line_option_fields(const SortConfig& c) {
  const LineOptions& l = c.lines;
  const std::string same_locale = "set the same LC_ALL (or LANG and LC_*) for every rank";
  return {
      {"option -k", "", keys_text(l.keys), ""},
      {"option -t", "", separator_text(l.separator), ""},
      {"option -n", "", on_off(l.numeric), ""},
      {"option -h", "", on_off(l.human_numeric), ""},
      {"option -f", "", on_off(l.fold), ""},
      {"option -g", "", on_off(l.general_numeric), ""},
      {"option -M", "", on_off(l.month), ""},
      {"option -R", "", on_off(l.random), ""},
      {"option -V", "", on_off(l.version), ""},
      {"option -d", "", on_off(l.dictionary), ""},
      {"option -i", "", on_off(l.printable), ""},
      {"option -b", "", on_off(l.ignore_blanks), ""},
      {"option -s", "", on_off(l.stable), ""},
      {"option -z", "", on_off(l.zero_terminated), ""},
      {"the locale", "LC_COLLATE", l.locale.collate, same_locale},
      {"the locale", "LC_CTYPE", l.locale.ctype, same_locale},
      {"the locale", "LC_NUMERIC", l.locale.numeric, same_locale},
      {"the locale", "LC_TIME", l.locale.time, same_locale},
      {"the locale", "installed", on_off(!l.locale.failed), "install the same locales on every host"},
  };
}

}  // namespace gsort
