// The temporary file an output is written to before it replaces its
// destination. Preferably an unnamed O_TMPFILE in the destination's
// directory: it has no name until it is linked at commit, so a gsort killed
// by SIGKILL leaves nothing behind. Where the file system has no O_TMPFILE,
// or other processes must open it (the ranks of a distributed sort), a
// named ".gsort-<host>-<pid>.XXXXXX" (a name that does not grow with the
// destination's), registered for signal cleanup; such names that killed
// gsorts left are removed when the next output is made beside them
// (io/temp/stale_files.h).
// Either way it is private (0600) until commit gives it its final mode.
#pragma once

#include <string>

#include "io/file/file.h"

namespace gsort {

// The start of every name gsort gives a file beside a destination.
inline constexpr const char* kOutputTempPrefix = ".gsort-";

class OutputTemp {
 public:
  OutputTemp() = default;
  // Creates the file in dir; on failure throws IoError
  // "<failure> <failure_path>: <why>". Errors writing it name `shown_as`
  // (the destination the user gave), not the temporary. `allow_unnamed`
  // false: always the named fallback (for tests).
  OutputTemp(const std::string& dir, const std::string& shown_as, const std::string& failure,
             const std::string& failure_path, bool allow_unnamed = true);
  ~OutputTemp();  // removes a name it made that was not renamed away
  OutputTemp(const OutputTemp&) = delete;
  OutputTemp& operator=(const OutputTemp&) = delete;

  File& file() { return file_; }
  const std::string& path() const { return path_; }  // empty while unnamed
  bool is_open() const { return file_.is_open(); }

  // Closes the file while it is empty and unnamed, so that its descriptor
  // serves other work a while (merges under a tight open-file limit); an
  // unnamed file holds nothing, so nothing is lost. False, and nothing
  // done, otherwise.
  bool set_aside();
  bool can_set_aside() const;
  // A new empty unnamed file in place of the one set aside, in the same
  // File (references to file() stay good). Throws IoError as the
  // constructor does.
  void take_back();

  // Gives the file a name in its directory (a link to the unnamed file)
  // and closes it. Throws IoError; the name is removed again on failure.
  void name_and_close();
  // Renames the named file onto target (same directory). Throws IoError
  // "cannot rename <role> into place: <display>: <why>".
  void rename_onto(const std::string& target, const std::string& role, const std::string& display);

 private:
  void set_path(const std::string& path);
  void forget_path();
  std::string dir_;
  std::string shown_as_, failure_, failure_path_;  // the constructor's, for take_back
  bool set_aside_ = false;
  std::string path_;  // empty while unnamed
  int slot_ = -1;     // in the temp registry while named
  File file_;
};

}  // namespace gsort
