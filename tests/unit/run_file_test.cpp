// Files on disk (io/): run files, plain or in zstd frames, must round-trip
// and must report any truncation or corruption as DataError; inputs whose size is not a whole
// number of records are refused with a message naming file, size and record
// size; the output appears only on commit; temp directories clean up.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "src/core/errors.h"
#include "src/core/thread_pool.h"
#include "io/input/input_set.h"
#include "io/output/output_target.h"
#include "io/run/run_file.h"
#include "io/temp/temp_dir.h"

namespace gsort {
namespace {

namespace fs = std::filesystem;

// A fresh directory for one test, removed with its contents afterwards.
class Scratch {
 public:
  Scratch() {
    const char* t = std::getenv("TMPDIR");
    std::string templ = std::string(t && *t ? t : "/tmp") + "/gsort-io-test.XXXXXX";
    std::vector<char> buf(templ.begin(), templ.end());
    buf.push_back('\0');
    if (::mkdtemp(buf.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = buf.data();
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  std::string file(const std::string& name) const { return path_ + "/" + name; }
  const std::string& path() const { return path_; }
  // Names of the entries in the directory (not recursive).
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(path_)) names.push_back(e.path().filename().string());
    return names;
  }

 private:
  std::string path_;
};

void write_bytes(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  ASSERT_TRUE(out.good()) << path;
}

std::vector<uint8_t> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::vector<uint8_t> random_records(uint64_t count, uint32_t record_size, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint8_t> v(count * record_size);
  for (auto& b : v) b = static_cast<uint8_t>(rng());
  return v;
}

// How runs are stored: plain, or zstd frames (small frames, so that even
// small runs have many, and one record a frame).
struct Storage {
  const char* name;
  RunCompression compression;
};

RunCompression zstd_frames(uint64_t frame_bytes, unsigned threads = 1) {
  RunCompression c;
  c.enabled = true;
  c.frame_bytes = frame_bytes;
  c.pool = threads > 1 ? new ThreadPool(threads) : nullptr;  // lives as long as the test program
  return c;
}

const Storage kStorages[] = {
    {"plain", RunCompression()},
    {"zstd 1000-byte frames", zstd_frames(1000)},
    {"zstd one record a frame", zstd_frames(1)},
    {"zstd 1000-byte frames, compressed by 3 threads", zstd_frames(1000, 3)},
};

// Writes a finished run, appending in uneven pieces.
void write_run(const std::string& path, const std::vector<uint8_t>& records, uint32_t record_size,
               const RunCompression& compression = RunCompression()) {
  RunWriter w(path, record_size, compression);
  const uint64_t count = records.size() / record_size;
  uint64_t done = 0, step = 1;
  while (done < count) {
    const uint64_t n = std::min(step, count - done);
    w.append(records.data() + done * record_size, n);
    done += n;
    step = step * 3 + 1;
  }
  w.append(records.data(), 0);  // an empty append is harmless
  EXPECT_EQ(w.record_count(), count);
  w.finish();
}

// Reads a whole run in batches of `batch` records.
std::vector<uint8_t> read_run(const std::string& path, uint32_t record_size, uint64_t batch) {
  RunReader r(path, record_size);
  std::vector<uint8_t> out, buf(batch * record_size);
  for (;;) {
    const uint64_t got = r.read(buf.data(), batch);
    if (got == 0) break;
    EXPECT_LE(got, batch);
    out.insert(out.end(), buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(got * record_size));
  }
  return out;
}

// ---------------------------------------------------------------- run files

TEST(RunFile, RoundTripsAnyCountInAnyBatchSize) {
  Scratch dir;
  struct Case {
    uint64_t count;
    uint32_t record_size;
  };
  const Case cases[] = {{0, 1}, {1, 1}, {1, 100}, {3, 7}, {10007, 13}, {5000, 100}, {3, 70000}};
  for (const Storage& storage : kStorages) {
    for (const Case& c : cases) {
      std::vector<uint8_t> records = random_records(c.count, c.record_size, c.count + c.record_size);
      if (c.count > 1000) {
        for (size_t i = 0; i < records.size(); ++i) records[i] &= 0x0F;  // compressible
      }
      const std::string path = dir.file("run." + std::to_string(c.count) + "." + std::to_string(c.record_size));
      write_run(path, records, c.record_size, storage.compression);
      if (!storage.compression.enabled) {
        const uint64_t blocks = run_block_count(c.count, run_block_records(c.record_size));
        EXPECT_EQ(fs::file_size(path), 64 + records.size() + 8 * blocks)
            << "a 64-byte header, the records, then a sum per block";
      }
      {
        RunReader r(path, c.record_size);
        EXPECT_EQ(r.record_count(), c.count);
        EXPECT_EQ(r.name(), path);
      }
      for (uint64_t batch : {uint64_t{1}, uint64_t{2}, uint64_t{7}, uint64_t{77}, uint64_t{1000}, c.count + 5}) {
        SCOPED_TRACE(std::string(storage.name) + ": " + std::to_string(c.count) + " records of " +
                     std::to_string(c.record_size) + ", batches of " + std::to_string(batch));
        EXPECT_TRUE(read_run(path, c.record_size, batch) == records);
      }
    }
  }
}

TEST(RunFile, ReadingPastTheEndKeepsReturningZero) {
  Scratch dir;
  const std::vector<uint8_t> records = random_records(10, 8, 1);
  write_run(dir.file("r"), records, 8);
  RunReader r(dir.file("r"), 8);
  std::vector<uint8_t> buf(100 * 8);
  EXPECT_EQ(r.read(buf.data(), 100), 10u);
  EXPECT_EQ(r.read(buf.data(), 100), 0u);
  EXPECT_EQ(r.read(buf.data(), 100), 0u);
  EXPECT_EQ(r.read(buf.data(), 0), 0u);
}

// Whether the file system under `dir` punches holes (a 2 MiB file, its
// first MiB punched out).
bool can_punch_holes(const Scratch& dir) {
  File probe = File::create(dir.file("probe"));
  std::vector<uint8_t> block(2 << 20, 1);
  probe.write_all(block.data(), block.size());
  return probe.punch_hole(0, 1 << 20);
}

// Allocated bytes of a file (st_blocks), which punched holes reduce.
uint64_t allocated_bytes(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) throw std::runtime_error("stat failed: " + path);
  return static_cast<uint64_t>(st.st_blocks) * 512;
}

// A reader told to release what it consumed frees the run's storage as the
// merge goes, hands out the same records, and still checks the checksum.
TEST(RunFile, ReleasingConsumedDataFreesStorageAndKeepsTheRecords) {
  Scratch dir;
  // Where the file system cannot punch holes, there is nothing to see.
  if (!can_punch_holes(dir)) GTEST_SKIP() << "no hole punching in " << dir.path();
  const uint32_t rs = 64;
  const uint64_t count = (uint64_t{80} << 20) / rs;  // 80 MiB: two release steps and a rest
  // Random records: compressed frames stay as large as the records.
  const std::vector<uint8_t> records = random_records(count, rs, 5);
  for (const Storage& storage : {Storage{"plain", RunCompression()}, Storage{"zstd", zstd_frames(64 << 10, 2)}}) {
    SCOPED_TRACE(storage.name);
    const std::string path = dir.file(std::string("run.") + storage.name);
    write_run(path, records, rs, storage.compression);
    const uint64_t file_bytes = fs::file_size(path);
    RunReader r(path, rs, nullptr, true);
    std::vector<uint8_t> got(records.size());
    const uint64_t batch = (uint64_t{4} << 20) / rs;
    uint64_t done = 0;
    while (done < count) {
      const uint64_t n = r.read(got.data() + done * rs, std::min(batch, count - done));
      ASSERT_GT(n, 0u);
      done += n;
      if (done * rs >= records.size() * 3 / 4) {
        EXPECT_LT(allocated_bytes(path), file_bytes - (uint64_t{31} << 20)) << "after reading " << done * rs;
      }
    }
    EXPECT_EQ(r.read(got.data(), 1), 0u);
    EXPECT_TRUE(got == records);
    EXPECT_EQ(fs::file_size(path), file_bytes) << "the size is kept";
  }
}

// Inputs that are temporary files read once (a distributed rank's received
// records) are punched out as they are read, through the unlinked file's
// /proc/self/fd name as the rank passes them; the records read are the
// file's, whether one thread or the pool reads them, and the size stays.
TEST(InputFiles, ConsumedAsReadFreesStorageAndKeepsTheRecords) {
  Scratch dir;
  // Where the file system cannot punch holes, there is nothing to see.
  if (!can_punch_holes(dir)) GTEST_SKIP() << "no hole punching in " << dir.path();
  const uint32_t rs = 100;
  const uint64_t count = (uint64_t{48} << 20) / rs + 7;  // not a whole MiB: the tail is punched at the end
  const std::vector<uint8_t> records = random_records(count, rs, 11);
  ThreadPool pool(4);
  for (const bool with_pool : {false, true}) {
    SCOPED_TRACE(with_pool ? "read by the pool" : "read by one thread");
    const std::string path = dir.file(with_pool ? "pool.bin" : "one.bin");
    write_bytes(path, records);
    File held = File::open_update(path);  // as the rank holds its received files
    ASSERT_EQ(::unlink(path.c_str()), 0);
    const std::string name = "/proc/self/fd/" + std::to_string(held.fd());
    InputSet set({name}, rs);
    set.consume_as_read();
    std::vector<uint8_t> got(records.size());
    const uint64_t batch = (uint64_t{8} << 20) / rs;
    uint64_t done = 0;
    while (done < count) {
      const uint64_t n = set.read(got.data() + done * rs, std::min(batch, count - done), with_pool ? &pool : nullptr);
      ASSERT_GT(n, 0u);
      done += n;
      if (done < count) {
        EXPECT_LE(allocated_bytes(name), records.size() - done * rs + (uint64_t{2} << 20)) << "after " << done * rs;
      }
    }
    EXPECT_EQ(set.read(got.data(), 1), 0u);
    EXPECT_TRUE(got == records);
    // All but a partly covered last block, which a punch zeroes and keeps.
    EXPECT_LE(allocated_bytes(name), uint64_t{64} << 10) << "every byte read is punched out";
    EXPECT_EQ(static_cast<uint64_t>(::lseek(held.fd(), 0, SEEK_END)), records.size()) << "the size is kept";
  }
  // Without it, nothing is punched.
  const std::string path = dir.file("kept.bin");
  write_bytes(path, records);
  const uint64_t before = allocated_bytes(path);
  InputSet set({path}, rs);
  std::vector<uint8_t> got(records.size());
  while (set.read(got.data(), count) > 0) {
  }
  EXPECT_EQ(allocated_bytes(path), before);
}

// Expects DataError from opening the run or, at the latest, from reading
// it to the end.
void expect_data_error(const std::string& path, uint32_t record_size, const std::string& what) {
  SCOPED_TRACE(what);
  try {
    RunReader r(path, record_size);
    std::vector<uint8_t> buf(37 * static_cast<size_t>(record_size));
    for (int i = 0; i < 1000000; ++i) {
      if (r.read(buf.data(), 37) == 0) break;
    }
    ADD_FAILURE() << "no error: " << what;
  } catch (const DataError& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << "the message should name the file: "
                                                                    << e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "expected DataError, got: " << e.what();
  }
}

TEST(RunFile, TruncationIsDetected) {
  Scratch dir;
  const uint32_t rs = 10;
  std::vector<uint8_t> records = random_records(500, rs, 2);
  for (size_t i = 0; i < records.size(); i += 2) records[i] = 0;  // compressible
  for (const Storage& storage : kStorages) {
    SCOPED_TRACE(storage.name);
    const std::string good = dir.file("good");
    write_run(good, records, rs, storage.compression);
    const std::vector<uint8_t> bytes = read_bytes(good);
    // Chop: one byte, ten, half, all but a record's worth, into the
    // header, everything.
    for (size_t keep : {bytes.size() - 1, bytes.size() - 10, bytes.size() / 2, size_t{64 + rs}, size_t{65},
                        size_t{64 - 1}, size_t{32}, size_t{1}, size_t{0}}) {
      const std::string path = dir.file("cut" + std::to_string(keep));
      write_bytes(path, std::vector<uint8_t>(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(keep)));
      expect_data_error(path, rs, "kept " + std::to_string(keep) + " of " + std::to_string(bytes.size()));
    }
    // Extra bytes at the end are damage too.
    std::vector<uint8_t> longer = bytes;
    longer.push_back(0);
    write_bytes(dir.file("longer"), longer);
    expect_data_error(dir.file("longer"), rs, "one byte appended");
    // An empty run cut into its header.
    write_run(dir.file("empty"), {}, rs, storage.compression);
    const std::vector<uint8_t> empty = read_bytes(dir.file("empty"));
    ASSERT_EQ(empty.size(), 64u);
    write_bytes(dir.file("empty-cut"), std::vector<uint8_t>(empty.begin(), empty.begin() + 60));
    expect_data_error(dir.file("empty-cut"), rs, "empty run cut to 60 bytes");
    // An empty run with bytes after its header.
    std::vector<uint8_t> empty_longer = empty;
    empty_longer.insert(empty_longer.end(), bytes.begin() + 64, bytes.end());
    write_bytes(dir.file("empty-longer"), empty_longer);
    expect_data_error(dir.file("empty-longer"), rs, "empty run followed by another run's payload");
  }
}

TEST(RunFile, FlippedPayloadByteFailsTheChecksum) {
  Scratch dir;
  const uint32_t rs = 16;
  const uint64_t count = 3000;
  const std::vector<uint8_t> records = random_records(count, rs, 3);
  write_run(dir.file("good"), records, rs);
  const std::vector<uint8_t> bytes = read_bytes(dir.file("good"));
  for (size_t at : {size_t{64}, size_t{64 + 1}, bytes.size() / 2, bytes.size() - 1}) {
    for (uint8_t mask : {uint8_t{0x01}, uint8_t{0x80}}) {
      std::vector<uint8_t> bad = bytes;
      bad[at] ^= mask;
      const std::string path = dir.file("flip" + std::to_string(at) + "_" + std::to_string(mask));
      write_bytes(path, bad);
      expect_data_error(path, rs, "byte " + std::to_string(at) + " flipped");
    }
  }
  // Two records swapped: same bytes, different order.
  std::vector<uint8_t> swapped = bytes;
  std::swap_ranges(swapped.begin() + 64, swapped.begin() + 64 + rs, swapped.begin() + 64 + rs);
  write_bytes(dir.file("swapped"), swapped);
  expect_data_error(dir.file("swapped"), rs, "first two records swapped");
}

// Damage either raises DataError or, where it hit bytes that do not matter
// (reserved header bytes, a frame-size limit still large enough), leaves
// exactly the original records: never different records silently.
void expect_detected_or_intact(const std::string& path, uint32_t record_size, const std::vector<uint8_t>& original,
                               const std::string& what) {
  SCOPED_TRACE(what);
  try {
    const std::vector<uint8_t> got = read_run(path, record_size, 7);
    EXPECT_TRUE(got == original) << "damage went unnoticed and changed the records";
  } catch (const DataError& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "expected DataError, got: " << e.what();
  }
}

TEST(RunFile, AnyFlippedByteOfACompressedRunIsDetected) {
  // Every byte of a small compressed run, frame headers included. A few
  // bits carry no information (reserved header bytes, the unused bit of a
  // zstd frame descriptor) and may be flipped harmlessly; every other flip
  // must raise DataError.
  Scratch dir;
  const uint32_t rs = 8;
  std::vector<uint8_t> records = random_records(40, rs, 33);
  for (size_t i = 0; i < records.size(); i += 3) records[i] = 0;
  for (const Storage& storage : kStorages) {
    if (!storage.compression.enabled) continue;
    SCOPED_TRACE(storage.name);
    write_run(dir.file("good"), records, rs, storage.compression);
    const std::vector<uint8_t> bytes = read_bytes(dir.file("good"));
    ASSERT_TRUE(read_run(dir.file("good"), rs, 7) == records);
    size_t detected = 0;
    for (size_t at = 0; at < bytes.size(); ++at) {
      std::vector<uint8_t> bad = bytes;
      bad[at] ^= 0x10;
      write_bytes(dir.file("bad"), bad);
      try {
        read_run(dir.file("bad"), rs, 7);
      } catch (const DataError&) {
        ++detected;
        continue;
      } catch (const std::exception& e) {
        ADD_FAILURE() << "byte " << at << ": expected DataError, got: " << e.what();
        continue;
      }
      expect_detected_or_intact(dir.file("bad"), rs, records,
                                "byte " + std::to_string(at) + " of " + std::to_string(bytes.size()));
    }
    EXPECT_GE(detected * 10, bytes.size() * 8) << "most flips must be reported";
  }
}

// A record count of zero in the header of a run that has records (for 64
// records, one flipped bit) must not read as an empty run.
TEST(RunFile, ZeroCountInTheHeaderOfANonEmptyRunIsDetected) {
  Scratch dir;
  const uint32_t rs = 8;
  const std::vector<uint8_t> records = random_records(64, rs, 34);
  for (const Storage& storage : kStorages) {
    SCOPED_TRACE(storage.name);
    write_run(dir.file("good"), records, rs, storage.compression);
    std::vector<uint8_t> bytes = read_bytes(dir.file("good"));
    ASSERT_EQ(bytes[16], 64);  // record_count, little-endian, at offset 16
    bytes[16] ^= 0x40;
    write_bytes(dir.file("zero-count"), bytes);
    expect_data_error(dir.file("zero-count"), rs, "record count 64 flipped to 0");
  }
}

TEST(RunFile, DamagedHeaderIsDetected) {
  Scratch dir;
  const uint32_t rs = 4;
  const std::vector<uint8_t> records = random_records(100, rs, 4);
  write_run(dir.file("good"), records, rs);
  const std::vector<uint8_t> bytes = read_bytes(dir.file("good"));
  // Offsets: magic 0-7, version 8, record size 12, count 16, payload bytes
  // 24, checksum 32, flags 40, frame bytes 44. Flip one bit of each, including the top bits of the
  // count, which multiply out to the same payload size modulo 2^64.
  struct Flip {
    size_t byte;
    uint8_t mask;
    const char* what;
  };
  const Flip flips[] = {{0, 0x01, "magic"},          {7, 0x20, "magic end"},
                        {8, 0x02, "version"},        {12, 0x01, "record size"},
                        {16, 0x01, "count low bit"}, {23, 0x40, "count bit 62"},
                        {23, 0x80, "count bit 63"},  {24, 0x04, "payload bytes"},
                        {31, 0x80, "payload top bit"}, {32, 0x01, "checksum"},
                        {39, 0x80, "checksum top bit"}, {40, 0x01, "flags: zstd frames"},
                        {40, 0x02, "flags: unknown"},   {44, 0x04, "frame bytes"}};
  for (const Flip& f : flips) {
    std::vector<uint8_t> bad = bytes;
    bad[f.byte] ^= f.mask;
    const std::string path = dir.file(std::string("hdr") + std::to_string(f.byte) + "_" + std::to_string(f.mask));
    write_bytes(path, bad);
    expect_data_error(path, rs, f.what);
  }
}

TEST(RunFile, WrongRecordSizeIsADataError) {
  Scratch dir;
  write_run(dir.file("r"), random_records(12, 8, 5), 8);
  for (uint32_t rs : {1u, 4u, 7u, 9u, 16u, 96u}) {
    EXPECT_THROW(RunReader(dir.file("r"), rs), DataError) << rs;
  }
  EXPECT_NO_THROW(RunReader(dir.file("r"), 8));
}

TEST(RunFile, UnfinishedRunIsADataError) {
  Scratch dir;
  {
    RunWriter w(dir.file("unfinished"), 8);
    const std::vector<uint8_t> records = random_records(50, 8, 6);
    w.append(records.data(), 50);
  }  // destroyed without finish()
  expect_data_error(dir.file("unfinished"), 8, "writer destroyed without finish");
  {
    RunWriter w(dir.file("unfinished-empty"), 8);
  }
  expect_data_error(dir.file("unfinished-empty"), 8, "empty writer destroyed without finish");
}

TEST(RunFile, MissingFileIsAnIoError) {
  Scratch dir;
  EXPECT_THROW(RunReader(dir.file("nothing-here"), 8), IoError);
  EXPECT_THROW(RunWriter(dir.file("no-such-dir/run"), 8), IoError);
}

// ------------------------------------------------------------------- inputs

void expect_partial_message(const std::string& message, const std::string& name, uint64_t size,
                            uint32_t record_size) {
  EXPECT_NE(message.find(name), std::string::npos) << message;
  EXPECT_NE(message.find(std::to_string(size)), std::string::npos) << message;
  EXPECT_NE(message.find(std::to_string(record_size)), std::string::npos) << message;
}

TEST(InputFiles, SizeNotAMultipleOfTheRecordSizeFailsAtOnce) {
  Scratch dir;
  const std::string path = dir.file("odd-input.bin");
  write_bytes(path, random_records(1, 1234, 7));  // 1234 bytes, 1234 % 100 = 34
  try {
    InputFile f(path, 100);
    ADD_FAILURE() << "accepted a 1234-byte file of 100-byte records";
  } catch (const DataError& e) {
    expect_partial_message(e.what(), path, 1234, 100);
  }
  try {
    InputSet set({path}, 100);
    ADD_FAILURE() << "InputSet accepted a 1234-byte file of 100-byte records";
  } catch (const DataError& e) {
    expect_partial_message(e.what(), path, 1234, 100);
  }
  // A good first input does not hide a bad second one.
  write_bytes(dir.file("good.bin"), random_records(3, 100, 8));
  EXPECT_THROW(InputSet({dir.file("good.bin"), path}, 100), DataError);
  // Whole records are fine, and so is an empty file.
  write_bytes(dir.file("empty.bin"), {});
  EXPECT_NO_THROW(InputSet({dir.file("good.bin"), dir.file("empty.bin")}, 100));
  // A missing input is an I/O error.
  EXPECT_THROW(InputSet({dir.file("good.bin"), dir.file("missing.bin")}, 100), IoError);
}

TEST(InputFiles, PipeEndingMidRecordFailsWhenItEnds) {
  Scratch dir;
  const std::string fifo = dir.file("pipe");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // 3 records of 8 bytes and 5 bytes of a fourth.
  const std::vector<uint8_t> data = random_records(29, 1, 9);
  std::thread writer([&] {
    const int fd = ::open(fifo.c_str(), O_WRONLY);
    if (fd < 0) return;
    const ssize_t put = ::write(fd, data.data(), data.size());
    (void)put;
    ::close(fd);
  });
  try {
    InputFile in(fifo, 8);
    EXPECT_FALSE(in.size_known());
    std::vector<uint8_t> buf(100 * 8);
    uint64_t total = 0;
    for (;;) {
      const uint64_t got = in.read(buf.data(), 100);
      if (got == 0) break;
      total += got;
    }
    ADD_FAILURE() << "a pipe ending 5 bytes into a record read as " << total << " whole records";
  } catch (const DataError& e) {
    expect_partial_message(e.what(), fifo, 29, 8);
  }
  writer.join();
}

TEST(InputFiles, InputSetReadsAcrossFilesInOrder) {
  Scratch dir;
  const uint32_t rs = 6;
  const std::vector<uint8_t> a = random_records(5, rs, 10), b = random_records(0, rs, 11),
                             c = random_records(9, rs, 12);
  write_bytes(dir.file("a"), a);
  write_bytes(dir.file("b"), b);
  write_bytes(dir.file("c"), c);
  for (uint64_t batch : {1, 4, 5, 14, 100}) {
    InputSet set({dir.file("a"), dir.file("b"), dir.file("c")}, rs);
    EXPECT_TRUE(set.size_known());
    EXPECT_EQ(set.total_bytes(), (5u + 9u) * rs);
    std::vector<uint8_t> all, buf(batch * rs);
    for (;;) {
      const uint64_t got = set.read(buf.data(), batch);
      if (got == 0) break;
      all.insert(all.end(), buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(got * rs));
    }
    std::vector<uint8_t> expected = a;
    expected.insert(expected.end(), c.begin(), c.end());
    EXPECT_TRUE(all == expected) << "batches of " << batch;
  }
}

// ------------------------------------------------------------------- output

TEST(OutputTargetTest, WithoutCommitNothingIsLeft) {
  Scratch dir;
  const std::string dest = dir.file("out.bin");
  {
    OutputTarget out(dest);
    const std::vector<uint8_t> data = random_records(100, 10, 13);
    out.file().write_all(data.data(), data.size());
    EXPECT_FALSE(fs::exists(dest)) << "the destination appears only on commit";
    // An unnamed O_TMPFILE; a named .gsort-XXXXXX where the file system has none.
    EXPECT_LE(dir.entries().size(), 1u) << "at most one temporary file while writing";
  }
  EXPECT_FALSE(fs::exists(dest));
  EXPECT_TRUE(dir.entries().empty()) << "the temporary file must be removed";
}

TEST(OutputTargetTest, WithoutCommitAnExistingDestinationIsUntouched) {
  Scratch dir;
  const std::string dest = dir.file("keep.bin");
  const std::vector<uint8_t> old_content = random_records(5, 7, 14);
  write_bytes(dest, old_content);
  {
    OutputTarget out(dest);
    const std::vector<uint8_t> data = random_records(100, 10, 15);
    out.file().write_all(data.data(), data.size());
  }
  EXPECT_TRUE(read_bytes(dest) == old_content);
  EXPECT_EQ(dir.entries().size(), 1u);
}

TEST(OutputTargetTest, CommitPutsTheContentInPlace) {
  Scratch dir;
  const std::string dest = dir.file("sorted.bin");
  write_bytes(dest, random_records(3, 3, 16));  // replaced on commit
  const std::vector<uint8_t> data = random_records(1000, 10, 17);
  const mode_t mask = ::umask(022);
  {
    OutputTarget out(dest);
    EXPECT_EQ(out.destination(), dest);
    EXPECT_FALSE(out.is_stdout());
    out.file().write_all(data.data(), data.size());
    out.commit();
  }
  ::umask(mask);
  EXPECT_TRUE(read_bytes(dest) == data);
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"sorted.bin"}) << "no temporary file left behind";
  struct stat st;
  ASSERT_EQ(::stat(dest.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0644u) << "a new file's mode under umask 022";
  // An empty output commits as an empty file.
  {
    OutputTarget out(dir.file("empty.bin"));
    out.commit();
  }
  EXPECT_TRUE(fs::exists(dir.file("empty.bin")));
  EXPECT_EQ(fs::file_size(dir.file("empty.bin")), 0u);
}

TEST(OutputTargetTest, UnwritableDestinationsFailUpFront) {
  Scratch dir;
  EXPECT_THROW(OutputTarget(dir.file("missing-dir/out.bin")), IoError);
  EXPECT_THROW(OutputTarget(dir.path()), IoError);  // a directory
  EXPECT_TRUE(dir.entries().empty());
  OutputTarget out("-");
  EXPECT_TRUE(out.is_stdout());
}

// ----------------------------------------------------------------- temp dir

// TempDir: tests/unit/temp_dir_test.cpp.

TEST(TempDirTest, MissingBaseIsAnIoErrorNamingIt) {
  Scratch base;
  const std::string missing = base.file("not-there");
  try {
    TempDir t(missing);
    ADD_FAILURE() << "made a temp dir under a missing directory";
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find(missing), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace gsort
