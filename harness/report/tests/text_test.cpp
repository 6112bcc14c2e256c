#include <gtest/gtest.h>

#include <fstream>

#include "report_fixture.hpp"
#include "scalefuzz/harness/report.hpp"
#include "scalefuzz/harness/terminal_text.hpp"
#include "scalefuzz/harness/child_process.hpp"
#include "text.hpp"

namespace scalefuzz::harness::text {
namespace {

TEST(Text, XmlEscapeCoversMarkupQuotesAndControls) {
  EXPECT_EQ(xml_escape("<a href=\"x\">&'</a>"), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;");
  EXPECT_EQ(xml_escape("tab\tnl\ncr\r"), "tab\tnl\ncr\r");
  EXPECT_EQ(xml_escape(std::string("nul\0bell\x07", 9)), "nul\\x00bell\\x07");
  EXPECT_EQ(xml_escape("\x1b[31mred"), "\\x1b[31mred");
}

TEST(Text, InvalidUtf8BecomesReplacementCharacter) {
  EXPECT_EQ(sanitize_utf8("ok \xc3\xa9"), "ok \xc3\xa9");          // é stays
  EXPECT_EQ(sanitize_utf8("bad \xff!"), "bad \xEF\xBF\xBD!");
  EXPECT_EQ(sanitize_utf8("cut \xe2\x82"), "cut \xEF\xBF\xBD\xEF\xBF\xBD");
  EXPECT_EQ(sanitize_utf8("overlong \xc0\xaf"), "overlong \xEF\xBF\xBD\xEF\xBF\xBD");
  EXPECT_EQ(sanitize_utf8("surrogate \xed\xa0\x80"), "surrogate \xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
  EXPECT_EQ(xml_escape("nonchar \xEF\xBF\xBF"), "nonchar \xEF\xBF\xBD");
}

TEST(Text, FileTailKeepsLastLines) {
  testing::TempDir tmp;
  const auto file = tmp.path() / "err.txt";
  {
    std::ofstream out(file);
    for (int i = 1; i <= 100; ++i) out << "line " << i << "\n";
  }
  EXPECT_EQ(file_tail(file, 3), "...\nline 98\nline 99\nline 100\n");
  EXPECT_EQ(file_tail(tmp.path() / "missing", 3), "");
  std::ofstream(tmp.path() / "short.txt") << "only\n";
  EXPECT_EQ(file_tail(tmp.path() / "short.txt", 3), "only\n");
}

TEST(Text, HumanSeconds) {
  EXPECT_EQ(human_seconds(1.234), "1.23s");
  EXPECT_EQ(human_seconds(12.34), "12.3s");
  EXPECT_EQ(human_seconds(125), "2m05s");
  EXPECT_EQ(human_seconds(3720), "1h02m");
  EXPECT_EQ(fixed3(1.5), "1.500");
}

// Issue 36 item 3: a replay line is shown through terminal_safe (--dry-run,
// exec, reproduce) or xml_escape (report.html, junit.xml); an argument with
// control bytes must come out as text a shell turns back into those bytes.
TEST(Text, ShellQuotedControlBytesSurviveDisplayAndComeBackFromBash) {
  const std::vector<std::string> words = {"plain", "two words", "it's",
                                          "\x1b]0;title\x07", "tab\tnew\nline", "del\x7f", "\\x1b literal",
                                          "caf\xc3\xa9 \xe2\x82\xac", "bad \xff utf8", "c1 \xc2\x9b" "2J", "quote ' \\ $'x'"};
  for (const auto& word : words) {
    const std::string quoted = shell_quote(word);
    // xml_escape (report.html, junit.xml) rewrites only control bytes into
    // \xNN text; markup characters become entities shown as themselves.
    for (unsigned char c : quoted) EXPECT_TRUE(c >= 0x20 && c != 0x7F) << "control byte in " << terminal_safe(quoted);
    const std::string shown = terminal_safe(quoted);
    EXPECT_EQ(shown, quoted) << "the quoted form of '" << terminal_safe(word) << "' changes when shown";
    const auto r = run_process({"bash", "-c", "printf %s " + shown}, "", std::chrono::seconds(30));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, word) << "bash does not give back '" << terminal_safe(word) << "' from " << shown;
  }
}

}  // namespace
}  // namespace scalefuzz::harness::text
