// The library's public header, used as a program would: only gsort/gsort.h
// from gsort, and the test support's independent reference sort.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "gsort/gsort.h"
#include "tests/support/record_gen.h"
#include "tests/support/reference_sort.h"
#include "tests/support/temp_dir.h"

namespace {

using gsort_test::RefKind;
using gsort_test::RefSpec;
using gsort_test::Rng;

gsort::Options options_for(const RefSpec& spec) {
  gsort::Options o = spec.options();
  o.threads = 2;
  return o;
}

// One spec per key type, with duplicates, floats with NaN and -0.0
// (make_records' specials), descending fields, -r and -u among them.
std::vector<RefSpec> specs() {
  std::vector<RefSpec> v;
  v.push_back({16, {{0, 8, RefKind::kUnsigned}}, false, false});
  v.push_back({12, {{4, 4, RefKind::kFloat, false, true}, {0, 3, RefKind::kBytes}}, false, false});
  v.push_back({24, {{8, 8, RefKind::kFloat}}, true, false});
  v.push_back({10, {{2, 2, RefKind::kSigned, true}}, false, true});
  v.push_back({9, {}, false, false});  // the whole record
  v.push_back({20, {{0, 1, RefKind::kSigned}, {4, 4, RefKind::kUnsigned, true}, {12, 8, RefKind::kSigned}}, false, false});
  return v;
}

std::string sorted_with_library(const std::string& data, const RefSpec& spec) {
  std::string copy = data;
  const uint64_t n = data.size() / spec.record_size;
  const uint64_t kept = gsort::sort_records(copy.data(), n, options_for(spec));
  copy.resize(kept * spec.record_size);
  return copy;
}

TEST(Library, VersionAndBuildInfo) {
  EXPECT_FALSE(gsort::version().empty());
  EXPECT_EQ(gsort::version().find_first_not_of("0123456789."), std::string::npos) << gsort::version();
  EXPECT_NE(gsort::build_info().find("GPU support"), std::string::npos) << gsort::build_info();
  // The library has no distributed sort, whatever the build has (gsort-mpi).
  EXPECT_NE(gsort::build_info().find("MPI: no"), std::string::npos) << gsort::build_info();
}

TEST(Library, SortFilesMatchesTheReferenceForEveryKeyType) {
  gsort_test::TempDir dir;
  Rng rng(401);
  for (const RefSpec& spec : specs()) {
    for (const size_t n : {size_t{0}, size_t{1}, size_t{2}, size_t{5000}}) {
      gsort_test::RecordMix mix;
      mix.duplicate_percent = 20;
      const std::string data = gsort_test::make_records(rng, spec, n, mix);
      gsort_test::write_file(dir.file("in"), data);
      const gsort::SortResult r = gsort::sort_files({dir.file("in")}, dir.file("out"), options_for(spec));
      const std::string expected = gsort_test::reference_sort(data, spec);
      EXPECT_EQ(gsort_test::describe_difference(gsort_test::read_file(dir.file("out")), expected, spec.record_size), "")
          << "n=" << n << " keys=" << spec.args().size();
      EXPECT_EQ(r.input_records, n);
      EXPECT_EQ(r.output_records, expected.size() / spec.record_size);
      EXPECT_FALSE(r.backend.empty());
    }
  }
}

TEST(Library, SortFilesSpillsRunsUnderASmallBudgetAndRemovesThem) {
  gsort_test::TempDir dir;
  const std::string temp = dir.subdir("tmp");
  Rng rng(402);
  const RefSpec spec{16, {{0, 4, RefKind::kUnsigned}}, false, false};
  const std::string data = gsort_test::numbered_u32_records(rng, 400000, 1000);  // 6.4 MB, 1000 distinct keys
  gsort_test::write_file(dir.file("in"), data);
  gsort::Options o = options_for(spec);
  o.memory_bytes = 1 << 20;
  o.temp_dir = temp;
  o.verify = true;
  o.backend = gsort::Backend::kCpu;  // a GPU would hold the input whole (the device tier) and spill nothing
  const gsort::SortResult r = gsort::sort_files({dir.file("in")}, dir.file("out"), o);
  EXPECT_GT(r.temp_bytes, 0u) << "expected the sort to spill runs";
  EXPECT_EQ(gsort_test::describe_difference(gsort_test::read_file(dir.file("out")),
                                            gsort_test::reference_sort(data, spec), 16), "");
  EXPECT_TRUE(gsort_test::list_tree(temp).empty()) << "temporary files left behind";
}

TEST(Library, SeveralInputsAndArgumentsAsOnTheCommandLine) {
  gsort_test::TempDir dir;
  Rng rng(403);
  const RefSpec spec{100, {{0, 10, RefKind::kBytes}}, false, false};  // --format gensort's layout
  const std::string a = gsort_test::make_records(rng, spec, 300), b = gsort_test::make_records(rng, spec, 200);
  gsort_test::write_file(dir.file("a"), a);
  gsort_test::write_file(dir.file("b"), b);
  gsort::Options o;
  o.arguments = {"--format", "gensort", "--stats", dir.file("stats.json")};
  gsort::sort_files({dir.file("a"), dir.file("b")}, dir.file("out"), o);
  EXPECT_EQ(gsort_test::read_file(dir.file("out")), gsort_test::reference_sort(a + b, spec));
  EXPECT_NE(gsort_test::read_file(dir.file("stats.json")).find("\"records\""), std::string::npos);
}

TEST(Library, MergeFilesMergesSortedInputsAndRejectsDisorder) {
  gsort_test::TempDir dir;
  Rng rng(404);
  const RefSpec spec{8, {{0, 8, RefKind::kSigned}}, false, false};
  const std::string a = gsort_test::reference_sort(gsort_test::make_records(rng, spec, 700), spec);
  const std::string b = gsort_test::reference_sort(gsort_test::make_records(rng, spec, 900), spec);
  gsort_test::write_file(dir.file("a"), a);
  gsort_test::write_file(dir.file("b"), b);
  const gsort::SortResult r = gsort::merge_files({dir.file("a"), dir.file("b")}, dir.file("out"), options_for(spec));
  EXPECT_EQ(r.output_records, 1600u);
  EXPECT_EQ(gsort_test::read_file(dir.file("out")), gsort_test::reference_sort(a + b, spec));

  std::string unsorted = a;
  std::swap_ranges(unsorted.begin(), unsorted.begin() + 8, unsorted.end() - 8);
  gsort_test::write_file(dir.file("c"), unsorted);
  EXPECT_THROW(gsort::merge_files({dir.file("c")}, dir.file("out2"), options_for(spec)), gsort::DataError);
  EXPECT_FALSE(gsort_test::path_exists(dir.file("out2")));
}

TEST(Library, SortFdReadsAPipeAndARegularFileFromItsOffset) {
  gsort_test::TempDir dir;
  Rng rng(405);
  const RefSpec spec{16, {{0, 8, RefKind::kUnsigned, false, true}}, false, false};
  const std::string data = gsort_test::make_records(rng, spec, 100000);  // 1.6 MB: more than a pipe holds

  int p[2];
  ASSERT_EQ(::pipe(p), 0);
  std::thread writer([&] {
    size_t done = 0;
    while (done < data.size()) {
      const ssize_t w = ::write(p[1], data.data() + done, data.size() - done);
      if (w <= 0) break;
      done += static_cast<size_t>(w);
    }
    ::close(p[1]);
  });
  const int out = ::open(dir.file("out").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  ASSERT_GE(out, 0);
  const gsort::SortResult r = gsort::sort_fd(p[0], out, options_for(spec));
  writer.join();
  EXPECT_EQ(r.input_records, 100000u);
  EXPECT_EQ(::fcntl(p[0], F_GETFD), 0) << "sort_fd closed its input";
  EXPECT_EQ(::fcntl(out, F_GETFD), 0) << "sort_fd closed its output";
  ::close(p[0]);
  ::close(out);
  EXPECT_EQ(gsort_test::read_file(dir.file("out")), gsort_test::reference_sort(data, spec));

  // A regular file whose offset stands at record 10: records from there on.
  gsort_test::write_file(dir.file("in"), data);
  const int in = ::open(dir.file("in").c_str(), O_RDONLY);
  ASSERT_GE(in, 0);
  ASSERT_EQ(::lseek(in, 10 * 16, SEEK_SET), 10 * 16);
  const int out2 = ::open(dir.file("out2").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  gsort::sort_fd(in, out2, options_for(spec));
  ::close(in);
  ::close(out2);
  EXPECT_EQ(gsort_test::read_file(dir.file("out2")), gsort_test::reference_sort(data.substr(10 * 16), spec));
}

TEST(Library, SortRecordsMatchesTheReferenceForEveryKeyType) {
  Rng rng(406);
  for (const RefSpec& spec : specs()) {
    for (const auto d : {gsort_test::Distribution::kRandom, gsort_test::Distribution::kAllEqual,
                         gsort_test::Distribution::kSorted, gsort_test::Distribution::kReverse,
                         gsort_test::Distribution::kFewDistinct}) {
      for (const size_t n : {size_t{0}, size_t{1}, size_t{3}, size_t{20000}}) {
        gsort_test::RecordMix mix;
        mix.distribution = d;
        const std::string data = gsort_test::make_records(rng, spec, n, mix);
        EXPECT_EQ(gsort_test::describe_difference(sorted_with_library(data, spec),
                                                  gsort_test::reference_sort(data, spec), spec.record_size), "")
            << gsort_test::distribution_name(d) << " n=" << n << " record size " << spec.record_size;
      }
    }
  }
}

TEST(Library, SortRecordsOnEachBackendThatCanRun) {
  Rng rng(407);
  const RefSpec spec{16, {{0, 8, RefKind::kFloat}}, false, false};
  const std::string data = gsort_test::make_records(rng, spec, 300000);
  const std::string expected = gsort_test::reference_sort(data, spec);
  for (const gsort::Backend b : {gsort::Backend::kCpu, gsort::Backend::kAuto, gsort::Backend::kGpu}) {
    gsort::Options o = options_for(spec);
    o.backend = b;
    o.verify = true;
    std::string copy = data;
    try {
      EXPECT_EQ(gsort::sort_records(copy.data(), 300000, o), 300000u);
    } catch (const gsort::DeviceError& e) {
      EXPECT_EQ(b, gsort::Backend::kGpu) << e.what();  // only asking for the GPU may fail
      continue;
    }
    EXPECT_EQ(gsort_test::describe_difference(copy, expected, 16), "") << "backend " << static_cast<int>(b);
  }
}

TEST(Library, CheckFileCountsTheFirstDisorderFromOne) {
  gsort_test::TempDir dir;
  const RefSpec spec{4, {{0, 4, RefKind::kUnsigned}}, false, false};
  std::string data;
  for (const uint32_t v : {1u, 2u, 5u, 3u, 7u}) data.append(reinterpret_cast<const char*>(&v), 4);
  gsort_test::write_file(dir.file("in"), data);
  const gsort::CheckReport bad = gsort::check_file(dir.file("in"), options_for(spec));
  EXPECT_FALSE(bad.sorted);
  EXPECT_EQ(bad.first_disorder, 4u);  // the record holding 3
  EXPECT_EQ(bad.first_disorder_offset, 12u);
  gsort_test::write_file(dir.file("in"), gsort_test::reference_sort(data, spec));
  const gsort::CheckReport good = gsort::check_file(dir.file("in"), options_for(spec));
  EXPECT_TRUE(good.sorted);
  EXPECT_EQ(good.records, 5u);
  EXPECT_EQ(good.first_disorder, 0u);
}

TEST(Library, ErrorsAreTypedAndLeaveTheDestinationAlone) {
  gsort_test::TempDir dir;
  gsort::Options o;
  o.record_size = 8;
  gsort_test::write_file(dir.file("out"), "previous");
  gsort_test::write_file(dir.file("odd"), "123456789");  // 9 bytes: not whole records

  EXPECT_THROW(gsort::sort_files({dir.file("missing")}, dir.file("out"), o), gsort::IoError);
  EXPECT_THROW(gsort::sort_files({dir.file("odd")}, dir.file("out"), o), gsort::DataError);
  gsort::Options bad_key = o;
  bad_key.keys = {"4:u64"};  // past the end of an 8-byte record
  EXPECT_THROW(gsort::sort_files({dir.file("odd")}, dir.file("out"), bad_key), gsort::UsageError);
  EXPECT_THROW(gsort::sort_files({}, dir.file("out"), o), gsort::UsageError);
  gsort::Options record_key_for_lines;  // no record size: lines, which take GNU keys
  record_key_for_lines.keys = {"0:u64"};
  EXPECT_THROW(gsort::sort_files({dir.file("odd")}, dir.file("out"), record_key_for_lines), gsort::UsageError);
  EXPECT_EQ(gsort_test::read_file(dir.file("out")), "previous");

  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"-o", "x"}, {"--output=x"}, {"--merge"}, {"-c"}, {"-ro"}, {"--help"}, {"somefile"}, {"--", "f"}}) {
    gsort::Options with = o;
    with.arguments = args;
    EXPECT_THROW(gsort::sort_files({dir.file("odd")}, dir.file("out"), with), gsort::UsageError) << args.front();
  }
  gsort::Options stats = o;
  stats.arguments = {"--stats", dir.file("s.json")};
  uint64_t record = 0;
  EXPECT_THROW(gsort::sort_records(&record, 1, stats), gsort::UsageError);
  EXPECT_THROW(gsort::sort_fd(-1, 1, o), gsort::UsageError);

  // Every error is a gsort::Error with a one-line message.
  try {
    gsort::sort_files({dir.file("missing")}, dir.file("out"), o);
    FAIL() << "no error";
  } catch (const gsort::Error& e) {
    EXPECT_NE(std::string(e.what()).find("missing"), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
  }
}

TEST(Library, QuietUnlessVerbose) {
  gsort_test::TempDir dir;
  Rng rng(408);
  const RefSpec spec{16, {{0, 8, RefKind::kUnsigned}}, false, false};
  gsort_test::write_file(dir.file("in"), gsort_test::make_records(rng, spec, 1000));
  gsort::Options o = options_for(spec);
  testing::internal::CaptureStderr();
  gsort::sort_files({dir.file("in")}, dir.file("out"), o);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  o.verbose = true;
  testing::internal::CaptureStderr();
  gsort::sort_files({dir.file("in")}, dir.file("out"), o);
  EXPECT_NE(testing::internal::GetCapturedStderr().find("records"), std::string::npos);
}

TEST(Library, CallsFromSeveralThreadsAtOnce) {
  gsort_test::TempDir dir;
  const RefSpec spec{16, {{0, 8, RefKind::kUnsigned}}, false, false};
  std::vector<std::string> data(4);
  for (size_t i = 0; i < data.size(); ++i) {
    Rng rng(500 + i);
    data[i] = gsort_test::make_records(rng, spec, 50000);
    gsort_test::write_file(dir.file("in" + std::to_string(i)), data[i]);
  }
  std::vector<std::string> in_memory = data;
  std::vector<std::thread> threads;
  for (size_t i = 0; i < data.size(); ++i) {
    threads.emplace_back([&, i] {
      gsort::sort_files({dir.file("in" + std::to_string(i))}, dir.file("out" + std::to_string(i)), options_for(spec));
      gsort::sort_records(in_memory[i].data(), 50000, options_for(spec));
    });
  }
  for (std::thread& t : threads) t.join();
  for (size_t i = 0; i < data.size(); ++i) {
    const std::string expected = gsort_test::reference_sort(data[i], spec);
    EXPECT_EQ(gsort_test::read_file(dir.file("out" + std::to_string(i))), expected) << i;
    EXPECT_EQ(in_memory[i], expected) << i;
  }
}

}  // namespace
