#include "src/cli/random_source.h"

#include <sys/random.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "src/core/errors.h"

namespace gsort {

std::array<uint8_t, 16> random_seed(const std::string& random_source) {
  std::array<uint8_t, 16> seed{};
  if (random_source.empty()) {
    for (size_t got = 0; got < seed.size();) {
      const ssize_t n = ::getrandom(seed.data() + got, seed.size() - got, 0);
      if (n < 0 && errno != EINTR) throw IoError(std::string("getrandom: ") + std::strerror(errno));
      if (n > 0) got += static_cast<size_t>(n);
    }
    return seed;
  }
  std::FILE* f = std::fopen(random_source.c_str(), "rb");
  if (!f) throw IoError("open failed: " + random_source + ": " + std::strerror(errno));
  const size_t got = std::fread(seed.data(), 1, seed.size(), f);
  const int read_errno = std::ferror(f) ? errno : 0;
  std::fclose(f);
  if (got < seed.size()) {
    if (read_errno != 0) throw IoError("'" + random_source + "': read error: " + std::strerror(read_errno));
    throw IoError("'" + random_source + "': end of file");
  }
  return seed;
}

void refuse_multiple_random_sources(const std::vector<boost::program_options::option>& parsed) {
  const std::string* first = nullptr;
  for (const boost::program_options::option& o : parsed) {
    if (o.string_key != "random-source" || o.value.empty()) continue;
    if (first && *first != o.value.front()) throw UsageError("multiple random sources specified");
    first = &o.value.front();
  }
}

}  // namespace gsort
