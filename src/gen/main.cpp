// gsort-gen: writes deterministic test and benchmark records (or text
// lines) for gsort.
// The only place that turns errors into exit codes.
#include <cstdio>
#include <new>
#include <vector>

#include "src/core/errors.h"
#include "src/core/exit_codes.h"
#include "src/gen/gen_options.h"
#include "src/gen/output_file.h"
#include "src/gen/record_generator.h"
#include "src/gen/text_generator.h"

namespace gsort::gen {
namespace {

// Large writes keep the generator, not the system calls, the bottleneck.
constexpr size_t kBufferBytes = 8u << 20;

// Text lines: as many as --records, through the same buffer.
void generate_text(const GenOptions& options) {
  TextGenerator generator(options);
  OutputFile out(options.output);
  std::vector<uint8_t> buffer(kBufferBytes + TextGenerator::kMaxLine);
  size_t used = 0;
  for (uint64_t done = 0; done < options.records; ++done) {
    used += generator.line(buffer.data() + used);
    if (used >= kBufferBytes) {
      out.write(buffer.data(), used);
      used = 0;
    }
  }
  out.write(buffer.data(), used);
  out.close();
}

void generate_to_file(const GenOptions& options) {
  if (is_text_format(options.format)) return generate_text(options);
  std::unique_ptr<RecordGenerator> generator = make_record_generator(options);
  const size_t record_size = generator->record_size();
  const size_t per_buffer = kBufferBytes / record_size > 0 ? kBufferBytes / record_size : 1;
  OutputFile out(options.output);
  std::vector<uint8_t> buffer;
  if (options.records > 0) buffer.resize(per_buffer * record_size);
  for (uint64_t done = 0; done < options.records;) {
    const uint64_t left = options.records - done;
    const size_t count = left < per_buffer ? static_cast<size_t>(left) : per_buffer;
    generator->generate(buffer.data(), count);
    out.write(buffer.data(), count * record_size);
    done += count;
  }
  out.close();
}

}  // namespace
}  // namespace gsort::gen

int main(int argc, char** argv) {
  try {
    gsort::gen::GenOptions options;
    if (!gsort::gen::parse_gen_options(argc, argv, options)) return gsort::kExitOk;
    gsort::gen::generate_to_file(options);
    return gsort::kExitOk;
  } catch (const gsort::Error& e) {
    std::fprintf(stderr, "gsort-gen: %s\n", e.what());
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "gsort-gen: out of memory\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gsort-gen: %s\n", e.what());
  }
  return gsort::kExitError;
}
