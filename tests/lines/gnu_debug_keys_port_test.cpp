// coreutils' tests/sort/sort-debug-keys.sh, ported: --debug's marks under
// each key of every ordering. Its first part whole (the second needs a
// French locale), then single cases of it by ordering. Each runs the gsort
// program with the script's arguments and input (LC_ALL=C).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tests/support/process.h"

namespace gsort_test {
namespace {

// sort-debug-keys.sh's first part whole (the second needs a French
// locale): every command in its order, the outputs joined, against the
// suite's expected text.
TEST(SortDebugKeys, TheSuitesCommandsWriteItsExpectedText) {
  struct Command {
    std::string input;
    std::vector<std::string> args;
    bool numbered = false;   // the script's `number` (cat -n, leading blanks cut)
    bool drop_nuls = false;  // its `tr -d '\0'` on the output
  };
  const std::string counts = "1\n\n44\n33\n2\n";
  std::vector<Command> commands;
  for (const std::string type : {"n", "h", "g"}) {
    commands.push_back({counts, {"-s", "-k2" + type}});
    commands.push_back({counts, {"-s", "-k1.3" + type}});
    commands.push_back({counts, {"-s", "-k1" + type}});
    commands.push_back({"2\n\n1\n", {"-s", "-k2g"}, true});
  }
  const std::vector<Command> rest = {
      {"FEB\n\nJAN\n", {"-s", "-k1M"}},
      {"FEB\n\nJAN\n", {"-s", "-k2,2M"}},
      {"FEB\nJAZZ\n\nJAN\n", {"-s", "-k1M"}},
      {"FEB\nJAZZ\n\nJAN\n", {"-s", "-k2,2M"}, true},
      {"FEB\nJANZ\n\nJAN\n", {"-s", "-k1M"}},
      {"FEB\nJANZ\n\nJAN\n", {"-s", "-k2,2M"}, true},
      {" 1.2ignore\n 1.1e4ignore\n", {"-s", "-g"}},
      {"\tb\n\t\ta\n", {"-s", "-d"}},
      {"a\n\n", {"-s", "-k2,2"}},
      {"b\na\n", {"-s", "-k1"}},
      {"-0\n1\n-2\n--Mi-1\n-3\n-0\n", {"-s", "-k1,1h"}},
      {" 1\n1\n", {"-b"}},
      {" 1\n1\n", {"-sb"}},
      {" 1\n1\n", {}},
      {"2,5\n2.4\n", {"-s", "-k1n"}},
      {"2.,,3\n2.4\n", {"-s", "-k1n"}},
      {"2,,3\n2.4\n", {"-s", "-k1n"}},
      {std::string("1a\0" "2b\0", 6), {"-s", "-n", "-z"}},
      {std::string("\0\ta\n", 4), {"-s", "-k2b,2"}, false, true},
      {"A\tchr10\nB\tchr1\n", {"-s", "-k2.4b,2.3n"}},
      {"1 2\n1 3\n", {"-s", "-k1.2b"}},
  };
  commands.insert(commands.end(), rest.begin(), rest.end());
  std::string out;
  for (const Command& c : commands) {
    std::string input = c.input;
    if (c.numbered) {
      input.clear();
      int n = 0;
      for (size_t at = 0; at < c.input.size();) {
        const size_t end = c.input.find('\n', at);
        input += std::to_string(++n) + "\t" + c.input.substr(at, end - at + 1);
        at = end + 1;
      }
    }
    std::vector<std::string> args = c.args;
    args.push_back("--debug");
    std::string text = run_gsort_on_pipe(args, input).out;
    if (c.drop_nuls) text.erase(std::remove(text.begin(), text.end(), '\0'), text.end());
    out += text;
  }
  const std::string expected = R"SUITE(1
 ^ no match for key

^ no match for key
44
  ^ no match for key
33
  ^ no match for key
2
 ^ no match for key
1
 ^ no match for key

^ no match for key
44
  ^ no match for key
33
  ^ no match for key
2
 ^ no match for key

^ no match for key
1
_
2
_
33
__
44
__
2>
  ^ no match for key
3>1
  _
1>2
  _
1
 ^ no match for key

^ no match for key
44
  ^ no match for key
33
  ^ no match for key
2
 ^ no match for key
1
 ^ no match for key

^ no match for key
44
  ^ no match for key
33
  ^ no match for key
2
 ^ no match for key

^ no match for key
1
_
2
_
33
__
44
__
2>
  ^ no match for key
3>1
  _
1>2
  _
1
 ^ no match for key

^ no match for key
44
  ^ no match for key
33
  ^ no match for key
2
 ^ no match for key
1
 ^ no match for key

^ no match for key
44
  ^ no match for key
33
  ^ no match for key
2
 ^ no match for key

^ no match for key
1
_
2
_
33
__
44
__
2>
  ^ no match for key
3>1
  _
1>2
  _

^ no match for key
JAN
___
FEB
___
FEB
   ^ no match for key

^ no match for key
JAN
   ^ no match for key
JAZZ
^ no match for key

^ no match for key
JAN
___
FEB
___
2>JAZZ
  ^ no match for key
3>
  ^ no match for key
4>JAN
  ___
1>FEB
  ___

^ no match for key
JANZ
___
JAN
___
FEB
___
3>
  ^ no match for key
2>JANZ
  ___
4>JAN
  ___
1>FEB
  ___
 1.2ignore
 ___
 1.1e4ignore
 _____
>>a
___
>b
__
a
 ^ no match for key

^ no match for key
a
_
b
_
-3
__
-2
__
-0
__
--Mi-1
^ no match for key
-0
__
1
_
 1
 _
__
1
_
_
 1
 _
1
_
 1
__
1
_
2,5
_
2.4
___
2.,,3
__
2.4
___
2,,3
_
2.4
___
1a
_
2b
_
>a
 _
A>chr10
     ^ no match for key
B>chr1
     ^ no match for key
1 2
 __
1 3
 __
)SUITE";
  EXPECT_EQ(out, expected);
}

// sort-debug-keys.sh's cases of -g, -M and -d, as the suite expects them
// (its `number` is cat -n's "N<tab>", shown as "N>").
TEST(SortDebugKeys, MarksUnderGeneralNumbersMonthsAndDictionaryKeys) {
  const auto marks = [](std::vector<std::string> args, const std::string& in) {
    args.push_back("--debug");
    return run_gsort_on_pipe(args, in).out;
  };
  EXPECT_EQ(marks({"-s", "-k2g"}, "1\n\n44\n33\n2\n"),
            "1\n ^ no match for key\n\n^ no match for key\n44\n  ^ no match for key\n33\n  ^ no match for key\n"
            "2\n ^ no match for key\n");
  EXPECT_EQ(marks({"-s", "-k1.3g"}, "1\n\n44\n33\n2\n"),
            "1\n ^ no match for key\n\n^ no match for key\n44\n  ^ no match for key\n33\n  ^ no match for key\n"
            "2\n ^ no match for key\n");
  EXPECT_EQ(marks({"-s", "-k1g"}, "1\n\n44\n33\n2\n"), "\n^ no match for key\n1\n_\n2\n_\n33\n__\n44\n__\n");
  EXPECT_EQ(marks({"-s", "-k2g"}, "1\t2\n2\t\n3\t1\n"), "2>\n  ^ no match for key\n3>1\n  _\n1>2\n  _\n");
  EXPECT_EQ(marks({"-s", "-k1M"}, "FEB\n\nJAN\n"), "\n^ no match for key\nJAN\n___\nFEB\n___\n");
  EXPECT_EQ(marks({"-s", "-k2,2M"}, "FEB\n\nJAN\n"),
            "FEB\n   ^ no match for key\n\n^ no match for key\nJAN\n   ^ no match for key\n");
  EXPECT_EQ(marks({"-s", "-k1M"}, "FEB\nJAZZ\n\nJAN\n"),
            "JAZZ\n^ no match for key\n\n^ no match for key\nJAN\n___\nFEB\n___\n");
  EXPECT_EQ(marks({"-s", "-k2,2M"}, "1\tFEB\n2\tJAZZ\n3\t\n4\tJAN\n"),
            "2>JAZZ\n  ^ no match for key\n3>\n  ^ no match for key\n4>JAN\n  ___\n1>FEB\n  ___\n");
  EXPECT_EQ(marks({"-s", "-k1M"}, "FEB\nJANZ\n\nJAN\n"),
            "\n^ no match for key\nJANZ\n___\nJAN\n___\nFEB\n___\n");
  EXPECT_EQ(marks({"-s", "-g"}, " 1.2ignore\n 1.1e4ignore\n"), " 1.2ignore\n ___\n 1.1e4ignore\n _____\n");
  EXPECT_EQ(marks({"-s", "-d"}, "\tb\n\t\ta\n"), ">>a\n___\n>b\n__\n");
}

// sort-debug-keys.sh's cases of -n, -h, -b, -t and the whole line.
TEST(SortDebugKeys, MarksUnderEachKey) {
  const auto marks = [](std::vector<std::string> args, const std::string& in) {
    args.push_back("--debug");
    return run_gsort_on_pipe(args, in).out;
  };
  EXPECT_EQ(marks({"-s", "-k2,1"}, "1\n"), "1\n ^ no match for key\n");
  EXPECT_EQ(marks({"-s", "-k1,1n"}, "2\n1\n33\n"), "1\n_\n2\n_\n33\n__\n");
  EXPECT_EQ(marks({"-t\t", "-s", "-k2,2n"}, "2\t\n3\t1\n"), "2>\n  ^ no match for key\n3>1\n  _\n");
  EXPECT_EQ(marks({"-s", "-h"}, " 1.2Kx\n"), " 1.2Kx\n ____\n");
  EXPECT_EQ(marks({"-k2b"}, "a \t b\n"), "a > b\n    _\n_____\n");
  EXPECT_EQ(marks({"-z", "-s"}, std::string("a\tb\0", 4)), "a>b\n___\n");
  EXPECT_EQ(marks({"-u"}, "\x01" "a\n"), "\x01" "a\n_\n");
}

}  // namespace
}  // namespace gsort_test
