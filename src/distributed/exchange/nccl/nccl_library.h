// NCCL, loaded when the NCCL exchange is asked for (dlopen of libnccl.so.2)
// rather than linked: a gsort built with it still starts where NCCL is not
// installed (CI, CPU-only hosts, the .deb), and says so only when a run
// needs it. nccl.h gives the types; the functions come from the library.
#pragma once

#include <nccl.h>

#include <string>

namespace gsort {

struct NcclLibrary {
  decltype(&ncclGetVersion) get_version = nullptr;
  decltype(&ncclGetUniqueId) get_unique_id = nullptr;
  decltype(&ncclCommInitRank) comm_init_rank = nullptr;
  decltype(&ncclCommDestroy) comm_destroy = nullptr;
  decltype(&ncclCommAbort) comm_abort = nullptr;
  decltype(&ncclGroupStart) group_start = nullptr;
  decltype(&ncclGroupEnd) group_end = nullptr;
  decltype(&ncclSend) send = nullptr;
  decltype(&ncclRecv) recv = nullptr;
  decltype(&ncclGetErrorString) error_string = nullptr;
  int version = 0;  // as ncclGetVersion reports it (22800 for 2.28.0)

  // The library, loaded once per process; null with *why set when it
  // cannot be loaded or lacks a function.
  static const NcclLibrary* load(std::string* why);
};

// Throws DeviceError "NCCL: <call> failed: <reason>" unless r is ncclSuccess.
void nccl_check(const NcclLibrary& nccl, ncclResult_t r, const char* call);

}  // namespace gsort
