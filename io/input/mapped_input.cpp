#include "io/input/mapped_input.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>

#include "io/input/input_change.h"
#include "src/core/errors.h"
#include "io/temp/temp_registry.h"
#include "src/core/host_buffer.h"

namespace gsort {

std::unique_ptr<MappedInput> MappedInput::map(const File& file, uint64_t begin, uint64_t end) {
  if (end <= begin) return nullptr;
  const uint64_t page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  const uint64_t aligned = begin / page * page;
  const size_t length = static_cast<size_t>(end - aligned);
  void* base = ::mmap(nullptr, length, PROT_READ, MAP_SHARED, file.fd(), static_cast<off_t>(aligned));
  if (base == MAP_FAILED) return nullptr;
  return std::make_unique<MappedInput>(base, length, static_cast<const uint8_t*>(base) + (begin - aligned), end - begin);
}

MappedInput::MappedInput(void* base, size_t length, const uint8_t* bytes, uint64_t size)
    : base_(base), length_(length), bytes_(bytes), size_(size) {
  try {
    guard_ = register_mapped_input(base_, length_);
  } catch (...) {
    ::munmap(base_, length_);
    throw;
  }
}

MappedInput::~MappedInput() {
  unregister_mapped_input(guard_);
  ::munmap(base_, length_);
}

void MappedInput::populate(ThreadPool& pool) const {
  (void)populate_on_pool(static_cast<uint8_t*>(base_), length_, PopulateFor::kRead, pool);
}

}  // namespace gsort

namespace gsort {

void MappedInput::watch_for_change(const File& file, const FileIdentity& identity) {
  const int fd = ::fcntl(file.fd(), F_DUPFD_CLOEXEC, 0);
  if (fd < 0) throw IoError("cannot keep watching " + describe_errno(file.display_name(), errno));
  watched_ = File(fd, file.display_name(), true);
  identity_ = identity;
}

void MappedInput::check_unchanged() const {
  if (watched_.is_open()) check_input_unchanged(watched_.fd(), watched_.display_name(), identity_);
}

}  // namespace gsort
