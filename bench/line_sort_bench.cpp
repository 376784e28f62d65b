// The line sort of one chunk on the CPU (src/chunk_sort/lines/): a file's lines
// sorted again and again in memory, the first run's faults aside; prints
// the best wall and CPU seconds of the sort alone, and of finding the
// lines. Usage: line_sort_bench FILE THREADS RUNS [-t SEP] [-n] [-h] [-r]
// [-k SPEC]... [--locale NAME] (C unless named: LC_ALL is not read).
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "src/algo/line_index.h"
#include "src/chunk_sort/lines/sorter.h"
#include "src/config/line_locale.h"
#include "src/core/thread_pool.h"
#include "src/keys/line_spec.h"

namespace {

double cpu_seconds() {
  rusage u{};
  ::getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

double wall_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

gsort::LineOptions options_of(int argc, char** argv) {
  gsort::LineOptions o;
  o.enabled = true;
  for (int i = 4; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "-t" && i + 1 < argc) o.separator = static_cast<unsigned char>(argv[++i][0]);
    if (a == "-n") o.numeric = true;
    if (a == "-h") o.human_numeric = true;
    if (a == "-k" && i + 1 < argc) o.keys.push_back(argv[++i]);
    if (a == "--locale" && i + 1 < argc) o.locale = gsort::line_locale_named(argv[++i]);
  }
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: line_sort_bench FILE THREADS RUNS [-t SEP] [-n] [-h] [-r] [-k SPEC]... [--locale NAME]\n");
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  const std::vector<uint8_t> text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  gsort::ThreadPool pool(static_cast<unsigned>(std::atoi(argv[2])));
  const int runs = std::atoi(argv[3]);
  bool reverse = false;
  for (int i = 4; i < argc; ++i) reverse |= std::strcmp(argv[i], "-r") == 0;
  const gsort::LineSpec spec = gsort::make_line_spec(options_of(argc, argv), reverse, false);
  std::vector<uint64_t> starts(text.size() + 1);
  double w = wall_seconds(), c = cpu_seconds();
  const gsort::IndexResult ix = gsort::index_lines(pool, text.data(), text.size(), '\n', starts.data(), text.size());
  std::printf("index: %.3f s wall, %.3f s cpu, %llu lines\n", wall_seconds() - w, cpu_seconds() - c,
              static_cast<unsigned long long>(ix.lines));
  const gsort::LineSpan span{text.data(), starts.data(), ix.lines};
  std::vector<uint32_t> order(ix.lines);
  std::unique_ptr<gsort::LineSorter> sorter = gsort::make_cpu_line_sorter(spec, pool);
  double best_wall = 1e9, best_cpu = 1e9;
  for (int r = 0; r <= runs; ++r) {
    w = wall_seconds();
    c = cpu_seconds();
    sorter->sort(span, order.data());
    if (r == 0) continue;  // first touches of the sorter's memory
    best_wall = std::min(best_wall, wall_seconds() - w);
    best_cpu = std::min(best_cpu, cpu_seconds() - c);
  }
  std::printf("sort: %.3f s wall, %.3f s cpu (best of %d)\n", best_wall, best_cpu, runs);
  std::printf("steps, all runs: %s\n", sorter->steps().c_str());
  return 0;
}
