// Failure agreement between ranks. A rank never leaves a collective step on
// its own: what fails on it is kept by attempt(), and at the next agree()
// (called by every rank at the same point) every rank learns that some rank
// failed and stops. So an error on one rank cannot leave the others waiting
// in a collective, and all ranks exit 2 together.
#pragma once

#include <string>
#include <utility>

#include "src/core/errors.h"
#include "src/core/failure_text.h"
#include "src/distributed/ranks/rank_group.h"
#include "src/distributed/ranks/ranks_failed.h"

namespace gsort {

class RankFence {
 public:
  explicit RankFence(const RankGroup& group) : group_(group) {}

  // Runs step() unless this rank already failed; keeps the first failure.
  template <typename Step>
  void attempt(Step&& step) {
    if (failed_) return;
    try {
      std::forward<Step>(step)();
    } catch (const UsageError& e) {
      fail(e.what(), true);
    } catch (const std::exception& e) {
      fail(failure_text(e), false);
    }
  }
  // Collective. Returns when no rank has failed; else throws RanksFailed.
  void agree();
  bool failed() const { return failed_; }

 private:
  void fail(const std::string& message, bool refusal) {
    failed_ = true;
    refusal_ = refusal;
    message_ = message;
  }

  const RankGroup& group_;
  bool failed_ = false;
  bool refusal_ = false;  // the request was refused (UsageError), as every rank refuses it
  std::string message_;
};

}  // namespace gsort
