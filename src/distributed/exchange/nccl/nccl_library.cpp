#include "src/distributed/exchange/nccl/nccl_library.h"

#include <dlfcn.h>

#include <mutex>

#include "src/core/errors.h"

namespace gsort {
namespace {

template <typename F>
bool resolve(void* handle, const char* name, F* f, std::string* why) {
  *f = reinterpret_cast<F>(::dlsym(handle, name));
  if (*f == nullptr) *why = std::string("libnccl has no ") + name;
  return *f != nullptr;
}

NcclLibrary load_once(std::string* why) {
  NcclLibrary lib;
  void* handle = nullptr;
  for (const char* name : {"libnccl.so.2", "libnccl.so"}) {
    handle = ::dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (handle) break;
  }
  if (!handle) {
    const char* err = ::dlerror();
    *why = std::string("cannot load libnccl.so.2 (") + (err ? err : "not found") + ")";
    return lib;
  }
  // The handle stays open for the life of the process: communicators and
  // their threads may outlive any one exchange.
  bool ok = resolve(handle, "ncclGetVersion", &lib.get_version, why) &&
            resolve(handle, "ncclGetUniqueId", &lib.get_unique_id, why) &&
            resolve(handle, "ncclCommInitRank", &lib.comm_init_rank, why) &&
            resolve(handle, "ncclCommDestroy", &lib.comm_destroy, why) &&
            resolve(handle, "ncclCommAbort", &lib.comm_abort, why) &&
            resolve(handle, "ncclGroupStart", &lib.group_start, why) &&
            resolve(handle, "ncclGroupEnd", &lib.group_end, why) &&
            resolve(handle, "ncclSend", &lib.send, why) && resolve(handle, "ncclRecv", &lib.recv, why) &&
            resolve(handle, "ncclGetErrorString", &lib.error_string, why);
  if (ok && lib.get_version(&lib.version) != ncclSuccess) {
    *why = "ncclGetVersion failed";
    ok = false;
  }
  if (!ok) lib = NcclLibrary{};
  return lib;
}

}  // namespace

const NcclLibrary* NcclLibrary::load(std::string* why) {
  static std::once_flag once;
  static NcclLibrary lib;
  static std::string failure;
  std::call_once(once, [] { lib = load_once(&failure); });
  if (lib.send == nullptr) {
    *why = failure;
    return nullptr;
  }
  return &lib;
}

void nccl_check(const NcclLibrary& nccl, ncclResult_t r, const char* call) {
  if (r == ncclSuccess) return;
  throw DeviceError(std::string("NCCL: ") + call + " failed: " + nccl.error_string(r));
}

}  // namespace gsort
