// The check that an input still is what gsort read: the same inode, size
// and times (io/file/file_identity.h) as when it was first opened. GNU sort
// copies what it reads, so its output is a sorted copy of something it read;
// gsort reads some inputs through a mapping and applies the order found in
// them to the same pages later, and reads regular files in pieces. An input
// written meanwhile would give an unsorted or garbled output, or a mix of
// two versions; this turns that into exit 2, before anything is committed.
#pragma once

#include <string>

#include "io/file/file_identity.h"

namespace gsort {

// Throws DataError "NAME: the file changed while gsort read it; ..." unless
// the file open on `fd` is unchanged since `then`.
void check_input_unchanged(int fd, const std::string& name, const FileIdentity& then);

}  // namespace gsort
