// How gsort's own process ends once its work is done (the output committed,
// temp files removed, every thread joined): standard I/O is flushed, and
// the process exits without running atexit handlers and static destructors.
// The CUDA runtime's handler tears down a device context there, which a
// started but unused GPU (auto, a small pipe) made cost the exit tens of
// milliseconds; the kernel frees the same context anyway. The GPU driver's
// files go to the teardown helper first, where one was started
// (src/core/teardown_helper.h), so the kernel's part too runs after the
// exit. Builds under
// AddressSanitizer exit normally, so that its leak check still runs.
#pragma once

namespace gsort {

// Never returns. A failure to flush standard output (a full disk behind
// `gsort --help > file`) turns an exit status of 0 into 2.
[[noreturn]] void end_process(int exit_code);

}  // namespace gsort
