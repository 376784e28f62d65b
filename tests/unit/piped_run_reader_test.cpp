// io/run/piped_run_reader.h: a run read in order from a pipe gives back
// its records in any read sizes and calls its end once; a run damaged
// anywhere (a record, the checksum table, its length, bytes after it) is a
// DataError before the last read returns, a pipe that ends early is the
// program's failure where the program failed, and a reader abandoned
// midway still ends the program behind the pipe.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "io/run/piped_run_reader.h"
#include "io/run/run_file.h"
#include "src/core/errors.h"
#include "tests/support/rng.h"
#include "tests/support/temp_dir.h"

namespace gsort_test {
namespace {

constexpr uint32_t kRs = 16;

// A whole plain run of `data` (16-byte records), as its file holds it.
std::string run_bytes(const TempDir& dir, const std::string& data) {
  const std::string path = dir.file("run");
  gsort::RunWriter w(path, kRs);
  w.append(reinterpret_cast<const uint8_t*>(data.data()), data.size() / kRs);
  w.finish();
  return read_file(path);
}

// `bytes` written into a pipe by a thread of its own, as a decompressor
// would; the reader's end of it.
class Feeder {
 public:
  explicit Feeder(std::string bytes) : bytes_(std::move(bytes)) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error("pipe");
    read_end_ = fds[0];
    thread_ = std::thread([this, w = fds[1]] {
      // A reader that stops early makes write() fail with EPIPE here, not
      // raise SIGPIPE in the test (this thread's, discarded with it).
      sigset_t pipe_signal;
      sigemptyset(&pipe_signal);
      sigaddset(&pipe_signal, SIGPIPE);
      pthread_sigmask(SIG_BLOCK, &pipe_signal, nullptr);
      for (size_t at = 0; at < bytes_.size();) {
        const ssize_t n = ::write(w, bytes_.data() + at, bytes_.size() - at);
        if (n <= 0) break;  // the reader went away
        at += static_cast<size_t>(n);
      }
      ::close(w);
    });
  }
  ~Feeder() { thread_.join(); }
  gsort::File take() { return gsort::File(read_end_, "run.0", true); }

 private:
  std::string bytes_;
  int read_end_ = -1;
  std::thread thread_;
};

// A writer that counts its ends, either way.
gsort::PipeWriter counted(int* ends) { return {[ends] { ++*ends; }, [ends] { ++*ends; }}; }

// Reads the whole run through a pipe, `per_read` records at a time.
std::string read_piped(const std::string& bytes, uint64_t per_read, int* ends) {
  Feeder feeder(bytes);
  gsort::PipedRunReader reader(feeder.take(), kRs, gsort::RunIdentity(), counted(ends));
  std::string out(per_read * kRs, '\0');
  std::string all;
  for (;;) {
    const uint64_t got = reader.read(reinterpret_cast<uint8_t*>(out.data()), per_read);
    if (got == 0) break;
    all.append(out.data(), got * kRs);
  }
  return all;
}

// The same, 1000 records a read, with `writer` behind the pipe.
void read_piped_with(const std::string& bytes, const gsort::PipeWriter& writer) {
  Feeder feeder(bytes);
  gsort::PipedRunReader reader(feeder.take(), kRs, gsort::RunIdentity(), writer);
  std::string out(1000 * kRs, '\0');
  while (reader.read(reinterpret_cast<uint8_t*>(out.data()), 1000) != 0) {
  }
}

TEST(PipedRunReader, GivesBackEveryRecordAndEndsOnce) {
  TempDir dir;
  Rng rng(5);
  for (const uint64_t records : {uint64_t{0}, uint64_t{1}, uint64_t{4096}, uint64_t{4097}, uint64_t{20000}}) {
    const std::string data = rng.bytes(records * kRs);
    const std::string bytes = run_bytes(dir, data);
    for (const uint64_t per_read : {uint64_t{1}, uint64_t{777}, uint64_t{1} << 20}) {
      int ends = 0;
      EXPECT_EQ(read_piped(bytes, per_read, &ends), data) << records << " records, " << per_read << " a read";
      EXPECT_EQ(ends, 1);
    }
  }
}

TEST(PipedRunReader, ADamagedRunIsADataErrorBeforeTheLastRead) {
  TempDir dir;
  Rng rng(6);
  const std::string data = rng.bytes(10000 * kRs);
  const std::string good = run_bytes(dir, data);
  const size_t header = sizeof(gsort::RunHeader);
  std::string record = good, table = good, cut = good, more = good + "x", head = good;
  record[header + 5000 * kRs + 3] ^= 1;
  table[good.size() - 5] ^= 1;
  cut.resize(good.size() - 8);
  head[0] ^= 1;
  for (const std::string* bad : {&record, &table, &cut, &more}) {
    int ends = 0;
    EXPECT_THROW(read_piped(*bad, 1000, &ends), gsort::DataError);
    EXPECT_EQ(ends, 1) << "the program behind the pipe is still waited for";
  }
  int ends = 0;
  EXPECT_THROW(read_piped(head, 1000, &ends), gsort::DataError);
  EXPECT_EQ(ends, 1) << "a reader whose header fails still waits for the program";
}

TEST(PipedRunReader, AnAbandonedReaderStopsTheProgram) {
  TempDir dir;
  Rng rng(7);
  const std::string bytes = run_bytes(dir, rng.bytes(100000 * kRs));
  int waits = 0, stops = 0;
  {
    Feeder feeder(bytes);
    gsort::PipedRunReader reader(feeder.take(), kRs, gsort::RunIdentity(),
                                 {[&waits] { ++waits; }, [&stops] { ++stops; }});
    std::string out(10 * kRs, '\0');
    EXPECT_EQ(reader.read(reinterpret_cast<uint8_t*>(out.data()), 10), 10u);
  }
  EXPECT_EQ(waits, 0);
  EXPECT_EQ(stops, 1);
}

// A decompressor that failed (PROG -d exiting 1) ends its output early:
// the error is its failure, as the writer's wait reports it, not a
// truncated run; where the writer did not fail, the run is truncated.
TEST(PipedRunReader, APipeEndedEarlyIsTheProgramsFailureWhereItFailed) {
  TempDir dir;
  Rng rng(8);
  const std::string good = run_bytes(dir, rng.bytes(10000 * kRs));
  for (const size_t keep : {size_t{0}, sizeof(gsort::RunHeader) - 1, good.size() / 2, good.size() - 8}) {
    SCOPED_TRACE(std::to_string(keep) + " bytes");
    int waits = 0;
    const gsort::PipeWriter failing{[&waits] {
                                      ++waits;
                                      throw gsort::Error("'prog' [-d] terminated abnormally");
                                    },
                                    [] {}};
    try {
      read_piped_with(good.substr(0, keep), failing);
      ADD_FAILURE() << "no error";
    } catch (const gsort::DataError& e) {
      ADD_FAILURE() << "the run was blamed: " << e.what();
    } catch (const gsort::Error& e) {
      EXPECT_STREQ(e.what(), "'prog' [-d] terminated abnormally");
    }
    EXPECT_EQ(waits, 1);
    int ends = 0;
    EXPECT_THROW(read_piped_with(good.substr(0, keep), counted(&ends)), gsort::DataError);
    EXPECT_EQ(ends, 1);
  }
}

}  // namespace
}  // namespace gsort_test
