// The head of an ASCII text made 64 bytes at a time (src/keys/ascii_heads.*)
// is table_head's wherever it says one, in en_US.UTF-8 (where 'z' weighs
// two bytes), sv_SE.UTF-8 and a single-byte locale: random texts of
// digits, letters, the punctuation and blanks the first level ignores, a
// tab, a control byte, now and then a NUL or a byte above 0x7F, short and
// longer than its 64-byte window, for every head size up to the most it
// takes and past it. It must say most of the heads of plain texts, and
// none where it cannot: a mutation that drops a check shows as a
// difference.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "src/keys/ascii_heads.h"
#include "src/keys/collation.h"
#include "src/keys/head_table.h"
#include "tests/support/rng.h"

namespace gsort {
namespace {

using gsort_test::Rng;

std::string random_text(Rng& rng, bool plain) {
  static const char kPlain[] = "0123456789abcdefghijklmnopqrstuvwxyzABCZ-:. []=_,'/";
  static const std::vector<std::string> kOther = {"\t", "\x01", std::string(1, '\0'), "\xC3\xA9", "\x7F", "\x80"};
  std::string t;
  for (uint64_t n = rng.below(rng.chance(25) ? 120 : 40); n > 0; --n) {
    if (!plain && rng.chance(3)) {
      t += kOther[rng.below(kOther.size())];
    } else {
      t += kPlain[rng.below(sizeof kPlain - 1)];
    }
  }
  return t;
}

TEST(AsciiHeads, SaysTableHeadsHeadWhereverItSaysOne) {
  int checked = 0;
  for (const char* name : {"en_US.UTF-8", "sv_SE.UTF-8", "en_US.ISO-8859-1"}) {
    const Collation* c = Collation::named(name);
    if (c == nullptr || c->table() == nullptr) continue;
    const HeadTable table = c->table()->view();
    const AsciiHeads fast(table.ascii);
    if (!fast.usable()) GTEST_SKIP() << "this CPU lacks AVX-512 VBMI2";
    Rng rng(5401);
    uint64_t said = 0, plain_said = 0, plain_tried = 0;
    for (int i = 0; i < 60000; ++i) {
      const bool plain = rng.chance(50);
      const std::string t = random_text(rng, plain);
      const auto* text = reinterpret_cast<const uint8_t*>(t.data());
      const uint64_t cap = rng.chance(50) ? 21 : 1 + rng.below(70);
      uint8_t quick[80] = {}, slow[80] = {};
      uint64_t quick_n = 99, slow_n = 0;
      if (!fast.head(text, t.size(), quick, cap, &quick_n)) {
        plain_tried += plain && cap == 21 && t.size() < 64;
        continue;
      }
      ++said;
      if (plain && cap == 21 && t.size() < 64) ++plain_said, ++plain_tried;
      ASSERT_TRUE(table_head(table, text, t.size(), slow, cap, &slow_n)) << name << ": '" << t << "'";
      ASSERT_EQ(std::string(reinterpret_cast<char*>(quick), quick_n), std::string(reinterpret_cast<char*>(slow), slow_n))
          << name << ", cap " << cap << ": '" << t << "'";
      for (uint64_t b = quick_n; b < sizeof quick; ++b) ASSERT_EQ(quick[b], 0) << "written past the head";
    }
    EXPECT_GT(said, 10000u) << name;
    // Plain texts of one window: only those with a character of two weight bytes are left.
    EXPECT_GT(plain_said * 10, plain_tried * 5) << name << ": " << plain_said << " of " << plain_tried;
    ++checked;
  }
  if (checked == 0) GTEST_SKIP() << "none of the locales is installed";
}

}  // namespace
}  // namespace gsort
