// --output-parts: the output is a directory of part files, part-00000,
// part-00001, ... (one per rank), whose concatenation in name order is the
// sorted output. A run's parts are put in place together or not at all:
// each is first written under a hidden name, then placed over its number
// while the part it replaces is kept aside (PlacedPart); only when every
// part is in place are the replaced ones, and every part numbered past the
// new set, removed. A failure before that puts every replaced part back. A
// gsort killed in the instant between placing and committing leaves the
// parts it replaced under hidden names (.gsort-kept-...), never deletes them.
#pragma once

#include <string>
#include <vector>

namespace gsort {

// DIR/part-NNNNN (five digits, more past 99999).
std::string part_file_name(const std::string& directory, int index);

// The output directory, made when it is missing (its parent must exist),
// and removed again, if it made it, unless keep() is called (a failed run
// leaves no new empty directory; on a signal too). Throws IoError when it
// cannot be made, or the name is something else than a directory.
class OutputDirectory {
 public:
  explicit OutputDirectory(const std::string& directory);
  ~OutputDirectory();
  OutputDirectory(const OutputDirectory&) = delete;
  OutputDirectory& operator=(const OutputDirectory&) = delete;
  const std::string& path() const { return path_; }
  void keep();

 private:
  std::string path_;
  bool made_ = false;
  int slot_ = -1;  // in the temp registry while it may go again
};

// Every DIR/part-N with N >= first (gaps or not): parts a run with more
// ranks, or a user, left there, which would join the concatenation. They
// are moved aside under hidden names, put back if the object goes without
// commit(), and removed by it. Throws IoError naming a part it cannot
// move (those moved so far come back).
class StaleParts {
 public:
  StaleParts(const std::string& directory, int first);
  ~StaleParts();
  StaleParts(const StaleParts&) = delete;
  StaleParts& operator=(const StaleParts&) = delete;
  void commit();

 private:
  struct Aside {
    std::string part, hidden;
  };
  void put_back() noexcept;
  std::vector<Aside> aside_;
  bool committed_ = false;
};

// One part placed over DIR/part-<index>: `staged` (a file in DIR) takes the
// replaced part's mode and owner, or a new file's mode, and is renamed
// over it; the replaced part stays linked under a hidden name until
// commit(), and is put back if the object goes without it.
class PlacedPart {
 public:
  PlacedPart(const std::string& staged, const std::string& directory, int index);
  ~PlacedPart();
  PlacedPart(const PlacedPart&) = delete;
  PlacedPart& operator=(const PlacedPart&) = delete;
  const std::string& path() const { return path_; }
  // Every part of the run is in place: the replaced one goes for good.
  void commit();

 private:
  std::string path_;    // DIR/part-<index>
  std::string kept_;    // the replaced part's hidden name; empty: none replaced
  bool committed_ = false;
};

}  // namespace gsort
