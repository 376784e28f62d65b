// The locale a sort of lines follows, found as GNU sort finds it: each
// category from LC_ALL, else LC_<CATEGORY>, else LANG (an empty variable
// counts as unset), else C; and where any of them names a locale that is
// not installed, C for everything, as setlocale(LC_ALL, "") leaves it.
#pragma once

#include <string>

#include "src/keys/line_options.h"

namespace gsort {

LineLocale line_locale_from_environment();

// One locale for every category (the library's Options::locale).
// Throws UsageError where it is not installed.
LineLocale line_locale_named(const std::string& name);

}  // namespace gsort
