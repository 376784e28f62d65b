// The one line gsort prints for a failure that is not one of its own typed
// errors' messages alone: a failed allocation says what to give (-S), a
// thread that could not start says why and what to give (--parallel, -S).
// Shared by main and the ranks' fence, so one process and ranks say alike.
#pragma once

#include <exception>
#include <string>

namespace gsort {

std::string failure_text(const std::exception& e);

}  // namespace gsort
