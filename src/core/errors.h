// Typed errors. Library code throws; main() alone maps them to exit codes
// (see exit_codes.h), so temp-file cleanup always runs on the way out. The
// types are public (the library's callers catch them): they live in the
// installed header gsort/errors.h.
#pragma once

#include "gsort/errors.h"
