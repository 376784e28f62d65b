// What the GPU's fill makes of a collated level (kernels/composite_fill.cu:
// the key found, its head read through the collation's table by
// head_table.h, the slot by LevelSlot::of_head), run here on the host:
// wherever the table can say the head, the slot's words are those of the
// host's own LevelSlot, in en_US.UTF-8, sv_SE.UTF-8 and a single-byte
// locale, for keys and for the whole line's last resort, reversed too.
// Lines with accents, apostrophes, NULs, Greek (outside the table) and
// invalid UTF-8; the table must say most heads.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "src/keys/collation.h"
#include "src/keys/head_table.h"
#include "src/keys/image_slot.h"
#include "src/keys/line_fields.h"
#include "tests/support/line_gen.h"
#include "tests/support/line_reference.h"

namespace gsort {
namespace {

using gsort_test::Rng;

std::string random_line(Rng& rng) {
  static const std::vector<std::string> pieces = {"a", "Z", "e", "\xC3\xA9", "\xC3\x89", "\xC3\xB6", "\xC3\xA5", "'",
                                                  "-", " ", ",", "0", "9", "\xCE\xA9", std::string(1, '\0'), "\xC3",
                                                  "\xFF", "ij", "Ch", "\xC5\x93"};
  std::string line;
  const uint64_t n = rng.below(40);
  for (uint64_t i = 0; i < n; ++i) line += pieces[rng.below(rng.chance(10) ? pieces.size() : 13)];
  return line;
}

TEST(CollatedHeadSlot, TheDevicesSlotIsTheHostsWhereTheTableSaysTheHead) {
  for (const std::string locale : {"en_US.UTF-8", "sv_SE.UTF-8", "en_US.ISO-8859-1"}) {
    if (!gsort_test::locale_installed(locale)) continue;
    for (const std::vector<std::string>& args :
         std::vector<std::vector<std::string>>{{"-t,", "-k2,2"}, {"-t,", "-k2,2r"}, {"-r"}, {"-t,", "-k1,1", "-b"}}) {
      SCOPED_TRACE(locale + " " + testing::PrintToString(args));
      const LineSpec spec = gsort_test::spec_in_locale(locale, args);
      Rng rng(5);
      uint64_t compared = 0, left_to_the_host = 0;
      for (const LineImageSpec& level : spec.images()) {
        if (line_order(level.key) != LineOrder::kCollate || level.key.fold || level.key.keep != kKeepAll) continue;
        ASSERT_NE(level.collation, nullptr);
        const FirstLevelWeights* table = level.collation->table();
        ASSERT_NE(table, nullptr);
        for (int i = 0; i < 20000; ++i) {
          const std::string text = random_line(rng) + "," + random_line(rng);
          const auto* line = reinterpret_cast<const uint8_t*>(text.data());
          uint64_t begin = 0, end = 0, n = 0;
          line_key_extent(line, text.size(), level.key, level.separator, &begin, &end);
          uint8_t head[kImageHeadBytes];
          if (!table_head(table->view(), line + begin, end - begin, head, kImageHeadBytes, &n)) {
            ++left_to_the_host;
            continue;
          }
          const Slot device = LevelSlot::of_head(head, n, level.key.reverse).slot();
          const LevelSlot host(level, line, text.size(), kSlotBytes);
          ASSERT_EQ(n, host.length()) << i;
          for (uint64_t w = 0; w < kSlotWords; ++w) ASSERT_EQ(device.w[w], host.word(w)) << "line " << i << ", word " << w;
          EXPECT_TRUE(host.inexact());
          ++compared;
        }
      }
      EXPECT_GT(compared, 2 * left_to_the_host) << "the table says most heads";
    }
  }
}

}  // namespace
}  // namespace gsort
