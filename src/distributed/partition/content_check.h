// The inputs' whole content, compared between the ranks before the commit.
// The identities compared at the start (ranks/input_identity.h) sample the
// content; ranks given different files of one name, size and time that
// differ elsewhere would sort a mix of them. Each rank reads only its slice,
// so its own bytes tell nothing of the others'; but ranks of one view
// (ranks/input_views.h) read the same bytes. So where the ranks read
// through more than one view, each rank hashes (XXH3) its share of its
// view's pieces (content_pieces.h) on a thread of its own while the sort
// runs, and before the commit compares them with rank 0's view's. Every
// view hashes every byte, so ranks that read different bytes anywhere
// are told apart: at least one of them differs from rank 0's view. Where
// there is one view (every rank on one host, on the same files), nothing
// is hashed.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <thread>
#include <vector>

#include "src/distributed/partition/content_pieces.h"
#include "src/distributed/partition/input_slice.h"
#include "src/distributed/ranks/input_views.h"
#include "src/distributed/ranks/rank_context.h"

namespace gsort {

class ContentCheck {
 public:
  // Starts hashing this rank's pieces where there is more than one view.
  // `inputs` must outlive the check.
  ContentCheck(const ConcatenatedInputs& inputs, const InputViews& views, int rank);
  // Stops the hashing early (a failure elsewhere ended the sort) and waits.
  ~ContentCheck();
  ContentCheck(const ContentCheck&) = delete;
  ContentCheck& operator=(const ContentCheck&) = delete;

  // Collective, after the last read of the inputs: checks that this rank's
  // inputs are unchanged since opened (ConcatenatedInputs::check_unchanged),
  // then waits for its hashes and compares them with rank 0's view's. A
  // rank whose input changed, that could not hash, or whose pieces differ,
  // fails on the fence (a difference names the input, its bytes and both
  // hashes), and every rank throws RanksFailed.
  void compare(RankContext& rank);

 private:
  void hash_pieces();

  const ConcatenatedInputs& inputs_;
  const bool in_rank0s_view_;
  size_t piece_count_ = 0;
  std::vector<ContentPiece> mine_;
  std::vector<uint64_t> hashes_;  // of mine_, by the thread
  std::exception_ptr error_;      // the thread's
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace gsort
