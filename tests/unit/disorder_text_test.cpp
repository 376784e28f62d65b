// -c's report of the first record out of order (src/verify/): check_sorted
// finds it and keeps both keys as they stand in the records, and
// describe_disorder names its number, byte offset and both keys in hex.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "src/keys/key_layout.h"
#include "src/verify/disorder_text.h"
#include "src/verify/sorted_check.h"
#include "tests/support/temp_dir.h"

namespace gsort {
namespace {

TEST(DisorderText, FindsTheRecordAndKeepsBothKeysAsTheyStand) {
  gsort_test::TempDir dir;
  // 4-byte records, key: a big-endian u16 at offset 2. Record 5 (from 1) is
  // out of order; small buffers make it straddle a buffer boundary.
  const std::string data = std::string("a\0\0\x01", 4) + std::string("b\0\0\x02", 4) + std::string("c\0\0\x03", 4) +
                           std::string("d\0\x01\x00", 4) + std::string("e\0\0\x09", 4) + std::string("f\0\0\x01", 4);
  gsort_test::write_file(dir.file("in.bin"), data);
  const KeyLayout layout({parse_key_spec("2:u16be")}, 4, false);
  for (const uint64_t buffer : {4u, 8u, 12u, 1024u}) {
    const CheckResult r = check_sorted(dir.file("in.bin"), layout, false, buffer);
    EXPECT_FALSE(r.sorted);
    EXPECT_EQ(r.bad_record, 5u) << buffer;
    EXPECT_EQ(r.bad_offset, 16u);
    EXPECT_EQ(r.previous_key, (std::vector<uint8_t>{0x01, 0x00}));
    EXPECT_EQ(r.bad_key, (std::vector<uint8_t>{0x00, 0x09}));
    EXPECT_EQ(describe_disorder(r, layout, false),
              "disorder at record 5 (counting from 1), byte offset 16: key 0009 sorts before the previous record's "
              "key 0100");
  }
}

TEST(DisorderText, FieldsAreSeparatedAndEqualKeysNamedUnderUnique) {
  const KeyLayout layout({parse_key_spec("0:u8"), parse_key_spec("1:2:desc")}, 3, false);
  CheckResult r{false, 2, 3, 2, {0x07, 0xaa, 0xbb}, {0x07, 0xaa, 0xbb}};
  EXPECT_EQ(describe_disorder(r, layout, true),
            "disorder at record 2 (counting from 1), byte offset 3: key 07,aabb equals the previous record's key "
            "07,aabb (with -u, keys must differ)");
}

// A key of more than 64 bytes shows 64 of them, from a little before the
// first byte where the two differ, and says which.
TEST(DisorderText, LongKeysShowTheWindowWhereTheyDiffer) {
  const KeyLayout layout = KeyLayout::whole_record(200, false);
  std::vector<uint8_t> a(200, 0x11), b(200, 0x11);
  a[150] = 0x22;
  const CheckResult late{false, 9, 1600, 9, a, b};
  const std::string text = describe_disorder(late, layout, false);
  // Bytes 134 to 197: 16 equal bytes, then where they differ.
  EXPECT_EQ(text, "disorder at record 9 (counting from 1), byte offset 1600: key " + std::string(128, '1') +
                      " sorts before the previous record's key " + std::string(32, '1') + "22" +
                      std::string(94, '1') + " (key bytes 134 to 197 of 200)");
  std::vector<uint8_t> c = a;
  c[150] = 0x11;
  c[3] = 0x22;
  const CheckResult early{false, 9, 1600, 9, c, b};
  EXPECT_NE(describe_disorder(early, layout, false).find("(key bytes 0 to 63 of 200)"), std::string::npos);
  std::vector<uint8_t> d = a;
  d[150] = 0x11;
  d[199] = 0x22;
  const CheckResult last{false, 9, 1600, 9, d, b};
  EXPECT_NE(describe_disorder(last, layout, false).find("(key bytes 136 to 199 of 200)"), std::string::npos);
}

}  // namespace
}  // namespace gsort
