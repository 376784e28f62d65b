#include "src/distributed/ranks/input_views.h"

#include <fstream>
#include <map>

namespace gsort {

std::string kernel_boot_id() {
  std::ifstream in("/proc/sys/kernel/random/boot_id");
  std::string id;
  if (!std::getline(in, id)) return std::string();
  return id;
}

InputViews::InputViews(const std::vector<std::string>& keys) {
  std::map<std::string, int> first_with;
  for (size_t r = 0; r < keys.size(); ++r) {
    const auto found = first_with.emplace(keys[r], static_cast<int>(r));
    if (found.second) ++views_;
    view_of_.push_back(found.first->second);
  }
}

std::string view_key(const RankGroup& group, const std::vector<InputIdentity>& inputs) {
  const std::string boot = kernel_boot_id();
  std::string key = "host " + std::to_string(group.host) + " boot " +
                    (boot.empty() ? "unknown, rank " + std::to_string(group.rank) : boot);
  for (const InputIdentity& in : inputs) key += " file " + std::to_string(in.device) + ":" + std::to_string(in.inode);
  return key;
}

InputViews find_input_views(const RankGroup& group, const std::vector<InputIdentity>& inputs) {
  return InputViews(gather_to_all(group, view_key(group, inputs)));
}

}  // namespace gsort
