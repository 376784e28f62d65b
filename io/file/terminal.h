// Which of gsort's files are terminals, for the progress line: it is drawn
// on standard error's terminal only when gsort neither reads a terminal
// (typed lines would be drawn over) nor writes its output to that terminal
// (the line would land among the output).
#pragma once

#include <string>

namespace gsort {

// Whether an input is a terminal: "-" or "/dev/fd/N" open on one, or a path
// to standard error's terminal (/dev/tty, /dev/pts/N, /dev/stdin).
bool input_is_terminal(const std::string& name);

// Whether an output name ("-" is standard output) is the terminal that
// descriptor tty_fd is open on. False when tty_fd is no terminal.
bool output_is_terminal_of(const std::string& name, int tty_fd);

}  // namespace gsort
