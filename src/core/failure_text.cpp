#include "src/core/failure_text.h"

#include <new>
#include <system_error>

#include "src/core/host_buffer.h"

namespace gsort {

std::string failure_text(const std::exception& e) {
  const std::string give = "give a smaller -S (the memory budget), or more memory";
  if (const auto* host = dynamic_cast<const HostOutOfMemory*>(&e)) return std::string(host->what()) + ": " + give;
  if (dynamic_cast<const std::bad_alloc*>(&e)) return "out of memory: " + give;
  if (const auto* sys = dynamic_cast<const std::system_error*>(&e)) {
    if (sys->code() == std::errc::resource_unavailable_try_again) {
      return "cannot start a thread (" + sys->code().message() +
             "): too little memory for its stack, or too many processes; give a smaller --parallel or -S";
    }
  }
  return e.what();
}

}  // namespace gsort
