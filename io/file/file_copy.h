// A whole file's bytes written over another's.
#pragma once

#include "io/file/file.h"

namespace gsort {

// Writes every byte of `from` (from its start) over `to` from its start,
// then cuts `to` to that size: `to` keeps its inode, links, owner, mode
// and attributes. In the kernel where it can (copy_file_range), else
// through a buffer. Throws IoError naming the file that failed.
void copy_over(File& from, File& to);

}  // namespace gsort
