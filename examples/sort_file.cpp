// sort_file IN OUT: sorts a file of 16-byte records by the unsigned 64-bit
// little-endian key in their first 8 bytes, as `gsort --record-size 16
// --key 0:u64 IN -o OUT` would, and says what it did.
#include <cstdio>

#include <gsort/gsort.h>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: sort_file IN OUT\n");
    return 2;
  }
  gsort::Options options;
  options.record_size = 16;
  options.keys = {"0:u64"};
  try {
    const gsort::SortResult r = gsort::sort_files({argv[1]}, argv[2], options);
    std::printf("sorted %llu records with %s in %.3f s\n", static_cast<unsigned long long>(r.input_records),
                r.backend.c_str(), r.seconds);
    return 0;
  } catch (const gsort::UsageError& e) {
    std::fprintf(stderr, "sort_file: bad request: %s\n", e.what());
  } catch (const gsort::Error& e) {
    std::fprintf(stderr, "sort_file: %s\n", e.what());
  }
  return 2;
}
