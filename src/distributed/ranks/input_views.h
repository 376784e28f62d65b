// Which ranks read the inputs through one view. Ranks of one kernel that
// hold the same files open (one device and inode each) read the same bytes,
// whatever the names: the page cache is the kernel's. Ranks on other hosts,
// or given other files under the same names (a node-local /scratch/in.dat),
// may read others. The content check (partition/content_check.h) hashes
// each view whole once, shared among its ranks, and compares the views.
#pragma once

#include <string>
#include <vector>

#include "src/distributed/ranks/input_identity.h"
#include "src/distributed/ranks/rank_group.h"

namespace gsort {

class InputViews {
 public:
  // From every rank's view key (view_key), in rank order: ranks whose keys
  // are equal share a view.
  InputViews() = default;
  explicit InputViews(const std::vector<std::string>& keys);

  // The lowest rank of `rank`'s view (its name).
  int view_of(int rank) const { return view_of_[static_cast<size_t>(rank)]; }
  int views() const { return views_; }
  int ranks() const { return static_cast<int>(view_of_.size()); }

 private:
  std::vector<int> view_of_;
  int views_ = 0;
};

// What identifies this rank's view: its host (as MPI tells the hosts
// apart) and kernel (its boot id: two hosts that MPI took for one still
// differ), then each input's device and inode. A rank whose kernel cannot be
// told has a view of its own.
std::string view_key(const RankGroup& group, const std::vector<InputIdentity>& inputs);

// This boot of this kernel (/proc/sys/kernel/random/boot_id), or empty
// where it cannot be read (not Linux).
std::string kernel_boot_id();

// Collective, never throws: every rank's key, shared.
InputViews find_input_views(const RankGroup& group, const std::vector<InputIdentity>& inputs);

}  // namespace gsort
