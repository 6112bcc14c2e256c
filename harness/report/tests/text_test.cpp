#include <gtest/gtest.h>

#include <fstream>

#include "report_fixture.hpp"
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

}  // namespace
}  // namespace scalefuzz::harness::text
