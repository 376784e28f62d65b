// GNU sort's -k POS1[,POS2] and the global options resolved into keys
// (src/keys/line_spec.h): positions, modifiers, inheritance, and
// GNU's error messages.
#include <gtest/gtest.h>

#include "src/core/errors.h"
#include "src/keys/line_spec.h"

namespace gsort {
namespace {

std::string error_of(const std::string& spec) {
  try {
    parse_line_key(spec);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(LineKeySpec, FieldsAndCharacters) {
  const LineKey k = parse_line_key("2.3,4.5").key;
  EXPECT_EQ(k.start_field, 1u);
  EXPECT_EQ(k.start_char, 2u);
  EXPECT_EQ(k.end_field, 3u);
  EXPECT_EQ(k.end_char, 5u);  // POS2's character counts from 1; 0 would be the field's end
  const LineKey whole = parse_line_key("3").key;
  EXPECT_EQ(whole.start_field, 2u);
  EXPECT_EQ(whole.end_field, kToLineEnd);
  EXPECT_EQ(parse_line_key("1,1.0").key.end_char, 0u) << "POS2 character 0: the end of the field";
}

TEST(LineKeySpec, ModifiersOnEitherPosition) {
  const ParsedLineKey a = parse_line_key("1b,2");
  EXPECT_TRUE(a.key.skip_start_blanks);
  EXPECT_FALSE(a.key.skip_end_blanks);
  EXPECT_TRUE(a.has_options);
  const ParsedLineKey b = parse_line_key("1,2bnrf");
  EXPECT_FALSE(b.key.skip_start_blanks);
  EXPECT_TRUE(b.key.skip_end_blanks);
  EXPECT_TRUE(b.key.numeric && b.key.reverse && b.key.fold);
  EXPECT_FALSE(parse_line_key("1,2").has_options);
  const ParsedLineKey h = parse_line_key("2,2hr");
  EXPECT_TRUE(h.key.human && h.key.reverse && h.has_options);
  EXPECT_FALSE(h.key.numeric);
}

// GNU sort's check_ordering_compatibility: n, g, h, M and one of d i R V
// exclude each other on a key; b, f and r go with any. The message lists
// the key's options in GNU's order, without b and r.
TEST(LineKeySpec, IncompatibleOrderingsInGnuWords) {
  EXPECT_EQ(error_of("1,1hn"), "options '-hn' are incompatible");
  EXPECT_EQ(error_of("1n,1h"), "options '-hn' are incompatible") << "across POS1 and POS2";
  EXPECT_EQ(error_of("1,1bfhnr"), "options '-fhn' are incompatible");
  EXPECT_EQ(error_of("1,1Mh"), "options '-hM' are incompatible") << "before -M's refusal";
  EXPECT_EQ(error_of("1,1dih"), "options '-dh' are incompatible") << "GNU's d hides i";
  EXPECT_EQ(error_of("1,1hbfr"), "");
  EXPECT_NE(error_of("1,1Mx").find("stray character"), std::string::npos) << "the syntax first";
  LineOptions o;
  o.numeric = o.human_numeric = true;
  const auto spec_error = [&]() -> std::string {
    try {
      make_line_spec(o, false, false);
    } catch (const UsageError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(spec_error(), "options '-hn' are incompatible") << "the global options as the whole line's key";
  o.keys = {"1,1"};
  EXPECT_EQ(spec_error(), "options '-hn' are incompatible") << "taken by a key without options";
  o.keys = {"1,1r", "2,2n"};
  EXPECT_EQ(spec_error(), "") << "no key takes them (GNU sort accepts this too)";
}

TEST(LineKeySpec, GnuMessages) {
  EXPECT_EQ(error_of("0"), "field number is zero: invalid field specification '0'");
  EXPECT_EQ(error_of("1.0"), "character offset is zero: invalid field specification '1.0'");
  EXPECT_EQ(error_of("1,0"), "field number is zero: invalid field specification '1,0'");
  EXPECT_EQ(error_of("1x"), "stray character in field spec: invalid field specification '1x'");
  EXPECT_EQ(error_of("x"), "invalid number at field start: invalid count at start of 'x'");
  EXPECT_EQ(error_of("1.x"), "invalid number after '.': invalid count at start of 'x'");
  EXPECT_EQ(error_of("1,x"), "invalid number after ',': invalid count at start of 'x'");
  EXPECT_EQ(error_of("-1"), "invalid number at field start: invalid count at start of '-1'");
  EXPECT_EQ(error_of(""), "invalid number at field start: invalid count at start of ''");
  EXPECT_EQ(error_of("1g"), "");
  EXPECT_EQ(error_of("1,1Mg"), "options '-gM' are incompatible");
  EXPECT_EQ(error_of("1dR,1Vfi"), "") << "d i R V are one group: 'd' wins over 'i', 'R' over 'V'";
  EXPECT_EQ(error_of("1iM"), "options '-iM' are incompatible");
  EXPECT_EQ(error_of("+2"), "") << "a '+' before a count, as strtoumax takes it";
}

TEST(LineKeySpec, HugeCountsSaturate) {
  const LineKey k = parse_line_key("99999999999999999999999.99999999999999999999999").key;
  EXPECT_GT(k.start_field, uint64_t{1} << 62);
  EXPECT_GT(k.start_char, uint64_t{1} << 62);
}

TEST(LineKeySpec, GlobalOptionsGoToKeysWithoutOptions) {
  LineOptions o;
  o.numeric = true;
  o.fold = true;
  o.ignore_blanks = true;
  o.keys = {"1,1", "2,2r", "3,3b"};
  const LineSpec s = make_line_spec(o, true, false);
  ASSERT_EQ(s.keys.size(), 3u);
  EXPECT_TRUE(s.keys[0].numeric && s.keys[0].fold && s.keys[0].reverse && s.keys[0].skip_start_blanks &&
              s.keys[0].skip_end_blanks);
  // A key with any option (even r alone) takes none of the global ones.
  EXPECT_TRUE(s.keys[1].reverse);
  EXPECT_FALSE(s.keys[1].numeric || s.keys[1].fold || s.keys[1].skip_start_blanks);
  EXPECT_FALSE(s.keys[2].reverse || s.keys[2].numeric);
  EXPECT_TRUE(s.keys[2].skip_end_blanks);
  EXPECT_FALSE(s.keys[2].skip_start_blanks) << "b after POS2 is for the end";
  EXPECT_TRUE(s.reverse) << "the last-resort comparison is reversed by -r";
}

TEST(LineKeySpec, GlobalOptionsWithoutKeysMakeAWholeLineKey) {
  LineOptions o;
  EXPECT_TRUE(make_line_spec(o, true, false).keys.empty()) << "-r alone reverses the last resort only";
  o.human_numeric = true;
  ASSERT_EQ(make_line_spec(o, false, false).keys.size(), 1u);
  EXPECT_TRUE(make_line_spec(o, false, false).keys[0].human);
  o.human_numeric = false;
  o.fold = true;
  const LineSpec s = make_line_spec(o, true, false);
  ASSERT_EQ(s.keys.size(), 1u);
  EXPECT_EQ(s.keys[0].start_field, 0u);
  EXPECT_EQ(s.keys[0].end_field, kToLineEnd);
  EXPECT_TRUE(s.keys[0].fold && s.keys[0].reverse);
}

TEST(LineKeySpec, LastResort) {
  LineOptions o;
  EXPECT_TRUE(make_line_spec(o, false, true).last_resort()) << "-u without keys: whole lines are the key";
  o.keys = {"1,1"};
  EXPECT_TRUE(make_line_spec(o, false, false).last_resort());
  EXPECT_FALSE(make_line_spec(o, false, true).last_resort());
  o.stable = true;
  EXPECT_FALSE(make_line_spec(o, false, false).last_resort());
  o.zero_terminated = true;
  EXPECT_EQ(make_line_spec(o, false, false).eol, '\0');
}

TEST(LineKeySpec, RecordKeysAreTold) {
  EXPECT_TRUE(looks_like_record_key("0:10"));
  EXPECT_TRUE(looks_like_record_key("8:u64:desc"));
  EXPECT_FALSE(looks_like_record_key("2,2n"));
}

}  // namespace
}  // namespace gsort
