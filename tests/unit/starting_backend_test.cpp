// StartingBackend (src/chunk_sort/starting_backend.h): the backend started on
// its own thread. A stand-in backend whose start the test releases by hand
// shows what happens before and after it is ready: nothing reaches it
// early, buffers given out before it are registered whole (once each, their
// contents untouched) before anything is sorted, registrations are undone
// when a buffer goes, and a failed start surfaces at first use.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <future>
#include <map>
#include <mutex>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "src/chunk_sort/cpu/cpu_backend.h"
#include "src/chunk_sort/starting_backend.h"
#include "src/core/errors.h"
#include "src/keys/key_layout.h"
#include "tests/support/resident_pages.h"

namespace {

using gsort_test::resident_pages;

// The CPU backend's sort, plus a record of what was registered and what
// each session was told.
class PinningBackend final : public gsort::SortBackend {
 public:
  PinningBackend(const gsort::KeyLayout& layout, gsort::ThreadPool& pool)
      : cpu_(gsort::make_cpu_backend(layout, pool)) {}
  std::string describe() const override { return "pinning stand-in"; }
  bool pins_host() const override { return true; }
  void sort_order(const uint8_t* records, uint64_t count, uint32_t* order) override {
    std::lock_guard<std::mutex> lock(mutex);
    sorted_unpinned_bytes += count * 8 - std::min<uint64_t>(count * 8, pinned_bytes_from(records));
    cpu_->sort_order(records, count, order);
  }
  std::unique_ptr<gsort::HostPin> pin_host(void* p, size_t bytes) override {
    std::lock_guard<std::mutex> lock(mutex);
    const auto* b = static_cast<const uint8_t*>(p);
    for (const auto& [q, n] : pinned) EXPECT_TRUE(b + bytes <= q || q + n <= b) << "registrations overlap";
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 4096, 0u);
    pinned[b] = bytes;
    ++registrations;
    return std::make_unique<Pin>(*this, b);
  }
  // Undoes its registration when it goes.
  struct Pin final : gsort::HostPin {
    Pin(PinningBackend& owner, const uint8_t* p) : owner(owner), p(p) {}
    ~Pin() override {
      std::lock_guard<std::mutex> lock(owner.mutex);
      EXPECT_EQ(owner.pinned.erase(p), 1u) << "unregistered what was not registered";
    }
    PinningBackend& owner;
    const uint8_t* p;
  };
  // Bytes pinned contiguously from `from` on.
  uint64_t pinned_bytes_from(const uint8_t* from) const {
    uint64_t covered = 0;
    for (;;) {
      bool grew = false;
      for (const auto& [q, n] : pinned) {
        if (q <= from + covered && from + covered < q + n) {
          covered = static_cast<uint64_t>(q + n - from);
          grew = true;
        }
      }
      if (!grew) return covered;
    }
  }

  std::mutex mutex;
  std::map<const uint8_t*, size_t> pinned;
  int registrations = 0;
  uint64_t sorted_unpinned_bytes = 0;

 private:
  std::unique_ptr<gsort::SortBackend> cpu_;
};

gsort::KeyLayout u64_layout() { return gsort::KeyLayout({gsort::parse_key_spec("0:u64")}, 8, false); }

// 8-byte records holding descending keys.
void fill_descending(uint8_t* p, uint64_t count) {
  for (uint64_t i = 0; i < count; ++i) {
    const uint64_t key = count - i;
    std::memcpy(p + i * 8, &key, 8);
  }
}

struct Started {
  std::promise<void> go;
  PinningBackend* made = nullptr;
};

// A StartingBackend whose start waits for s.go, then fails or makes a
// PinningBackend; `whole_input` as StartingBackend takes it.
std::unique_ptr<gsort::StartingBackend> starting(Started& s, const gsort::KeyLayout& layout, gsort::ThreadPool& pool,
                                                 bool fail = false, bool size_known = true,
                                                 gsort::StartingBackend::WholeInputChoice whole_input = nullptr) {
  std::shared_future<void> go = s.go.get_future().share();
  return std::make_unique<gsort::StartingBackend>(
      [&s, &layout, &pool, go, fail]() -> std::unique_ptr<gsort::SortBackend> {
        go.wait();
        if (fail) throw gsort::DeviceError("--backend gpu: there is no GPU");
        auto b = std::make_unique<PinningBackend>(layout, pool);
        s.made = b.get();
        return b;
      },
      0, pool, size_known, std::move(whole_input));
}

TEST(StartingBackend, BuffersFilledBeforeTheStartArePinnedWholeAndKeepTheirBytes) {
  const gsort::KeyLayout layout = u64_layout();
  gsort::ThreadPool pool(2);
  Started s;
  auto backend = starting(s, layout, pool);
  const uint64_t count = (uint64_t{80} << 20) / 8 + 123;  // 80 MiB and a bit: populated on several threads
  {
    gsort::HostBuffer records = backend->allocate_host(count * 8);
    fill_descending(records.data(), count / 2);  // half read before the start ends
    auto session = backend->begin_chunk(records.data());
    session->records_ready(count / 2);  // not started: only noted
    EXPECT_FALSE(backend->ready());
    s.go.set_value();
    fill_descending(records.data(), count);  // the rest read while it pins (the same keys again, then more)
    gsort::SortBackend& b = backend->backend();  // waits for the start
    EXPECT_TRUE(backend->ready());
    EXPECT_EQ(&b, s.made);
    EXPECT_EQ(backend->pinned_buffers(), 1u);
    session->records_ready(count);
    std::vector<uint32_t> order(count);
    session->finish(order.data());
    {
      std::lock_guard<std::mutex> lock(s.made->mutex);
      EXPECT_EQ(s.made->registrations, 1);  // one registration: a copy may not span two
      EXPECT_GE(s.made->pinned_bytes_from(records.data()), count * 8);
      EXPECT_EQ(s.made->sorted_unpinned_bytes, 0u);
    }
    for (uint64_t i = 0; i < count; ++i) ASSERT_EQ(order[i], count - 1 - i) << "at " << i;
  }
  // The buffer is gone: so is its registration.
  std::lock_guard<std::mutex> lock(s.made->mutex);
  EXPECT_TRUE(s.made->pinned.empty());
}

TEST(StartingBackend, ABufferReleasedBeforeTheStartEndsIsNeverRegistered) {
  const gsort::KeyLayout layout = u64_layout();
  gsort::ThreadPool pool(2);
  Started s;
  auto backend = starting(s, layout, pool);
  { gsort::HostBuffer gone = backend->allocate_host(1 << 20); }
  s.go.set_value();
  backend->backend();
  EXPECT_EQ(backend->pinned_buffers(), 0u);
  std::lock_guard<std::mutex> lock(s.made->mutex);
  EXPECT_EQ(s.made->registrations, 0);
}

TEST(StartingBackend, SortOrderWaitsForTheStartAndPinsTheWholeChunk) {
  const gsort::KeyLayout layout = u64_layout();
  gsort::ThreadPool pool(2);
  Started s;
  auto backend = starting(s, layout, pool);
  const uint64_t count = 1000;
  gsort::HostBuffer records = backend->allocate_host(count * 8);
  fill_descending(records.data(), count);
  std::vector<uint32_t> order(count);
  auto sort = std::async(std::launch::async, [&] { backend->sort_order(records.data(), count, order.data()); });
  s.go.set_value();
  sort.get();
  for (uint64_t i = 0; i < count; ++i) ASSERT_EQ(order[i], count - 1 - i);
  std::lock_guard<std::mutex> lock(s.made->mutex);
  EXPECT_EQ(s.made->sorted_unpinned_bytes, 0u);
  EXPECT_EQ(backend->describe(), "pinning stand-in");
}

TEST(StartingBackend, AFailedStartSurfacesAtFirstUse) {
  const gsort::KeyLayout layout = u64_layout();
  gsort::ThreadPool pool(2);
  Started s;
  auto backend = starting(s, layout, pool, /*fail=*/true);
  gsort::HostBuffer records = backend->allocate_host(64);
  fill_descending(records.data(), 8);
  auto session = backend->begin_chunk(records.data());
  EXPECT_NO_THROW(session->records_ready(4));  // still starting: only noted
  s.go.set_value();
  EXPECT_THROW(backend->backend(), gsort::DeviceError);  // waits for the start to end
  EXPECT_TRUE(backend->ready());
  // Once it has failed, the reader's next report says so, not only the end.
  EXPECT_THROW(session->records_ready(8), gsort::DeviceError);
  std::vector<uint32_t> order(8);
  EXPECT_THROW(session->finish(order.data()), gsort::DeviceError);
  EXPECT_THROW(backend->describe(), gsort::DeviceError);
}

TEST(StartingBackend, BuffersAskedForAfterTheStartComeFromTheBackend) {
  const gsort::KeyLayout layout = u64_layout();
  gsort::ThreadPool pool(2);
  Started s;
  auto backend = starting(s, layout, pool);
  s.go.set_value();
  backend->backend();
  gsort::HostBuffer records = backend->allocate_host(4096);
  fill_descending(records.data(), 512);
  std::vector<uint32_t> order(512);
  backend->sort_order(records.data(), 512, order.data());
  EXPECT_EQ(order[0], 511u);
  std::lock_guard<std::mutex> lock(s.made->mutex);
  EXPECT_EQ(s.made->registrations, 0);  // the backend's own memory: nothing to register
}

// A stream's chunk buffer (up to 4 GB) may stay mostly empty: it is not
// faulted in up front, nor by a start that ends on a backend that does not
// pin (the CPU fallback of a machine without a GPU).
TEST(StartingBackend, AStreamsBufferIsNotFaultedInAndNothingPinsForTheCpu) {
  const gsort::KeyLayout layout = u64_layout();
  gsort::ThreadPool pool(2);
  std::promise<void> go;
  std::shared_future<void> started = go.get_future().share();
  gsort::StartingBackend backend(
      [&layout, &pool, started]() {
        started.wait();
        return gsort::make_cpu_backend(layout, pool);
      },
      0, pool, /*size_known=*/false);
  const uint64_t bytes = uint64_t{64} << 20;
  gsort::HostBuffer buffer = backend.allocate_host(bytes);
  EXPECT_LT(resident_pages(buffer.data(), bytes), 64u) << "faulted in up front";
  go.set_value();
  backend.backend();
  EXPECT_EQ(backend.pinned_buffers(), 0u);
  EXPECT_LT(resident_pages(buffer.data(), bytes), 64u) << "faulted in by the start";
  fill_descending(buffer.data(), 1000);
  std::vector<uint32_t> order(1000);
  backend.sort_order(buffer.data(), 1000, order.data());
  EXPECT_EQ(order[0], 999u);
}

// A stream's chunk is sorted as it arrives by the WholeInputChoice's
// backend for a whole chunk (auto: the CPU, with 4 threads or more),
// without waiting for the start; dropped unfinished (the stream outgrew its
// chunk), the started backend sorts what follows and --stats names it.
TEST(StartingBackend, AStreamsChunkIsSortedAsItArrivesByTheWholeInputChoice) {
  const gsort::KeyLayout layout = u64_layout();
  gsort::ThreadPool pool(4);
  auto choice = [&](uint64_t count) -> std::unique_ptr<gsort::SortBackend> {
    return count < 5000 ? gsort::make_cpu_backend(layout, pool) : nullptr;
  };
  for (const bool finished : {true, false}) {
    Started s;
    std::unique_ptr<gsort::StartingBackend> started =
        starting(s, layout, pool, /*fail=*/false, /*size_known=*/false, choice);
    gsort::StartingBackend& backend = *started;
    EXPECT_EQ(backend.begin_stream(nullptr, 6000), nullptr) << "a chunk the choice declines";
    const uint64_t count = 3000;
    gsort::HostBuffer records = backend.allocate_host(count * 8);
    fill_descending(records.data(), count);
    std::unique_ptr<gsort::ChunkSortSession> session = backend.begin_stream(records.data(), count);
    ASSERT_NE(session, nullptr);
    session->records_ready(count / 2);
    session->records_ready(count);
    if (finished) {
      std::vector<uint32_t> order(count);
      session->finish_in_parts(order.data(), count, [](uint64_t) {});
      for (uint64_t i = 0; i < count; ++i) ASSERT_EQ(order[i], count - 1 - i) << "at " << i;
      EXPECT_FALSE(backend.ready()) << "waited for the start";
      EXPECT_NE(backend.describe().find("cpu"), std::string::npos) << backend.describe();
      session.reset();
      s.go.set_value();
    } else {
      session.reset();
      EXPECT_FALSE(backend.sorted_without_start()) << "the stream outgrew its chunk";
      s.go.set_value();
      EXPECT_EQ(backend.describe(), "pinning stand-in");
    }
  }
}

// A stream's start waits until the backend may be needed: a stream that
// the WholeInputChoice sorts whole, below half of its chunk, never starts
// the device; one that passes half of it starts it while the rest arrives.
TEST(StartingBackend, AStreamSortedWholeOnTheChoiceNeverStartsTheDevice) {
  const gsort::KeyLayout layout = u64_layout();
  gsort::ThreadPool pool(4);
  auto choice = [&](uint64_t) { return gsort::make_cpu_backend(layout, pool); };
  const uint64_t capacity = 4000;
  for (const uint64_t count : {uint64_t{1000}, uint64_t{3000}}) {
    Started s;
    std::unique_ptr<gsort::StartingBackend> started =
        starting(s, layout, pool, /*fail=*/false, /*size_known=*/false, choice);
    gsort::StartingBackend& backend = *started;
    gsort::HostBuffer records = backend.allocate_host(capacity * 8);
    fill_descending(records.data(), count);
    std::unique_ptr<gsort::ChunkSortSession> session = backend.begin_stream(records.data(), capacity);
    ASSERT_NE(session, nullptr);
    session->records_ready(count);
    std::vector<uint32_t> order(count);
    session->finish_in_parts(order.data(), count, [](uint64_t) {});
    session.reset();
    for (uint64_t i = 0; i < count; ++i) ASSERT_EQ(order[i], count - 1 - i) << "at " << i;
    EXPECT_TRUE(backend.sorted_without_start());
    EXPECT_EQ(backend.start_pending(), count > capacity / 2) << count << " of " << capacity;
    s.go.set_value();
    if (count > capacity / 2) {
      backend.backend();  // the start runs to its end
      EXPECT_NE(s.made, nullptr);
    } else {
      EXPECT_FALSE(backend.ready()) << "never begun: nothing ends";
      EXPECT_EQ(s.made, nullptr) << "the device was started";
    }
  }
}

}  // namespace

// Nor is it pinned by a start that ends on a backend that pins (the GPU):
// pinning a mostly empty multi-GB buffer beside a pipe's reader slowed the
// read more than copying from pageable memory costs.
TEST(StartingBackend, AStreamsBufferStaysPageableEvenForABackendThatPins) {
  const gsort::KeyLayout layout = u64_layout();
  gsort::ThreadPool pool(2);
  Started s;
  auto backend = starting(s, layout, pool, /*fail=*/false, /*size_known=*/false);
  const uint64_t bytes = uint64_t{64} << 20;
  gsort::HostBuffer buffer = backend->allocate_host(bytes);
  s.go.set_value();
  backend->backend();
  EXPECT_EQ(backend->pinned_buffers(), 0u);
  EXPECT_LT(resident_pages(buffer.data(), bytes), 64u) << "faulted in by the start";
  fill_descending(buffer.data(), 1000);
  std::vector<uint32_t> order(1000);
  backend->sort_order(buffer.data(), 1000, order.data());
  EXPECT_EQ(order[0], 999u);
  std::lock_guard<std::mutex> lock(s.made->mutex);
  EXPECT_EQ(s.made->registrations, 0);
  EXPECT_EQ(s.made->sorted_unpinned_bytes, 1000u * 8);
}

// A stream that turns out whole in one chunk is sorted by what the
// WholeInputChoice gives for its count (auto: the CPU backend for a small
// one), without waiting for the start, and --stats then names that backend;
// a count the choice declines keeps the started backend.
TEST(StartingBackend, AStreamReadWholeGoesToTheWholeInputChoice) {
  const gsort::KeyLayout layout = u64_layout();
  gsort::ThreadPool pool(2);
  std::vector<uint64_t> asked;
  auto choice = [&](uint64_t count) -> std::unique_ptr<gsort::SortBackend> {
    asked.push_back(count);
    return count < 5000 ? gsort::make_cpu_backend(layout, pool) : nullptr;
  };
  for (const uint64_t count : {uint64_t{1000}, uint64_t{6000}}) {
    Started s;
    std::unique_ptr<gsort::StartingBackend> started =
        starting(s, layout, pool, /*fail=*/false, /*size_known=*/false, choice);
    gsort::StartingBackend& backend = *started;
    gsort::HostBuffer records = backend.allocate_host(count * 8);
    fill_descending(records.data(), count);
    std::vector<uint32_t> order(count);
    if (count < 5000) {
      gsort::SortBackend& whole = backend.backend_for_whole_input(count);
      EXPECT_NE(&whole, &backend);
      EXPECT_EQ(&backend.backend_for_whole_input(count), &whole) << "asked again: the same backend";
      whole.sort_order_in_parts(records.data(), count, order.data(), [](uint64_t) {});
      EXPECT_FALSE(backend.ready()) << "waited for the start";
      EXPECT_EQ(backend.describe(), whole.describe());
      EXPECT_NE(backend.describe().find("cpu"), std::string::npos) << backend.describe();
      // What --stats and -v ask after the sort answers without the start
      // (a wait here would never end: the start is held).
      EXPECT_TRUE(backend.sorted_without_start());
      EXPECT_EQ(backend.peak_device_bytes(), 0u);
      (void)backend.timings();
      EXPECT_FALSE(backend.ready());
      s.go.set_value();  // the start ends on its own; the destructor waits for it
    } else {
      EXPECT_EQ(&backend.backend_for_whole_input(count), &backend);
      EXPECT_FALSE(backend.sorted_without_start());
      s.go.set_value();
      backend.sort_order(records.data(), count, order.data());
      EXPECT_EQ(backend.describe(), "pinning stand-in");
    }
    for (uint64_t i = 0; i < count; ++i) ASSERT_EQ(order[i], count - 1 - i) << "at " << i;
  }
  EXPECT_EQ(asked, (std::vector<uint64_t>{1000, 6000}));
}
