// A main() for the fuzz targets in builds without libFuzzer (gcc, or any
// normal build): runs the target once on every file named, or in a folder
// named, and fails when the run's peak memory passed kMostRssBytes, as
// libFuzzer's -rss_limit_mb would. ctest replays the seed corpus and the
// regressions (inputs that once crashed) this way.
#include <sys/resource.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int* argc, char*** argv);

namespace {

constexpr long kMostRssBytes = 1L << 30;

void run_one(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::printf("%s\n", path.c_str());
  std::fflush(stdout);
  LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
}

}  // namespace

int main(int argc, char** argv) {
  if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
  for (int i = 1; i < argc; ++i) {
    if (std::filesystem::is_directory(argv[i])) {
      for (const auto& e : std::filesystem::directory_iterator(argv[i])) run_one(e.path());
    } else {
      run_one(argv[i]);
    }
  }
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  if (usage.ru_maxrss * 1024L > kMostRssBytes) {
    std::fprintf(stderr, "peak memory %ld MiB: more than %ld MiB\n", usage.ru_maxrss / 1024, kMostRssBytes >> 20);
    return 1;
  }
  return 0;
}
