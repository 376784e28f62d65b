#include "src/config/line_locale.h"

#include <locale.h>

#include <cstdlib>

#include "src/core/errors.h"

namespace gsort {
namespace {

std::string variable(const char* name) {
  const char* v = std::getenv(name);
  return v == nullptr ? std::string() : std::string(v);
}

// LC_ALL, then the category's own variable, then LANG, then C.
std::string category_name(const char* category) {
  for (const std::string& v : {variable("LC_ALL"), variable(category), variable("LANG")}) {
    if (!v.empty()) return v;
  }
  return "C";
}

bool installed(int mask, const char* name) {
  locale_t l = newlocale(mask, name, static_cast<locale_t>(0));
  if (l == static_cast<locale_t>(0)) return false;
  freelocale(l);
  return true;
}

}  // namespace

LineLocale line_locale_from_environment() {
  LineLocale l;
  // Every category, LC_MESSAGES and the rest too: setlocale(LC_ALL, "")
  // fails, and leaves C, where any one of them is not installed.
  if (!installed(LC_ALL_MASK, "")) {
    l.failed = true;
    return l;
  }
  l.collate = category_name("LC_COLLATE");
  l.ctype = category_name("LC_CTYPE");
  l.numeric = category_name("LC_NUMERIC");
  l.time = category_name("LC_TIME");
  return l;
}

LineLocale line_locale_named(const std::string& name) {
  if (!installed(LC_ALL_MASK, name.c_str())) throw UsageError("locale '" + name + "' is not installed");
  LineLocale l;
  l.collate = l.ctype = l.numeric = l.time = name;
  return l;
}

}  // namespace gsort
