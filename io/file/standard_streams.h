// A process started with standard input, output or error closed would hand
// those descriptor numbers to the first files it opens, and then read its
// "standard input" from, or write its output into, one of its own files.
// guard_standard_streams() puts /dev/null on each closed one first.
#pragma once

namespace gsort {

struct StandardStreams {
  bool stdin_was_closed = false;
  bool stdout_was_closed = false;  // writing output to "-" must then fail
  bool stderr_was_closed = false;
  bool stdout_is_terminal = false;  // binary output there needs --to-terminal
};

StandardStreams guard_standard_streams();

}  // namespace gsort
