// Symbolization against this test executable's own functions.
#include <gtest/gtest.h>

#include <cstdio>
#include <dlfcn.h>
#include <fstream>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "scalefuzz/trace/symbolize.hpp"
#include "scalefuzz/trace/writer.hpp"
#include "trace_test_util.hpp"

namespace scalefuzz_symbolize_test {

volatile std::uint64_t g_sink = 0;

__attribute__((noinline)) std::uint64_t return_address_of_caller() {
  auto a = reinterpret_cast<std::uint64_t>(__builtin_return_address(0));
  g_sink = a;
  return a;
}

constexpr int kCallLine = __LINE__ + 3;  // the line of the call below
__attribute__((noinline)) std::uint64_t known_call_site() {
  g_sink = 1;
  std::uint64_t ra = return_address_of_caller();
  g_sink = ra + 1;  // work after the call: no tail call
  return ra;
}

}  // namespace scalefuzz_symbolize_test

namespace scalefuzz::trace {
namespace {

using testing::TempRunDir;

TEST(TraceSymbolize, RecoversFunctionFileAndLineOfAReturnAddress) {
  std::uint64_t ra = scalefuzz_symbolize_test::known_call_site();
  Dl_info info{};
  ASSERT_NE(dladdr(reinterpret_cast<void*>(ra), &info), 0);

  TempRunDir dir;
  testing::RankBuilder b(0, 1);
  b.add(OpClass::Init);
  CallSiteInfo site;
  site.id = 0;
  site.stable_hash = 1;
  site.frames = {ra, reinterpret_cast<std::uint64_t>(&std::fopen) + 1};
  b.rt.sites.push_back(site);
  write_rank(dir.path(), b.rt);
  write_modules(dir.file(0, "modules"), current_process_modules());

  RankTrace rt = read_rank(dir.path(), 0);
  symbolize(dir.path(), rt);
  ASSERT_EQ(rt.sites.size(), 1u);
  ASSERT_EQ(rt.sites[0].symbolized.size(), 2u);
  const Frame& f = rt.sites[0].symbolized[0];
  EXPECT_EQ(f.address, ra);
  EXPECT_EQ(std::filesystem::canonical(f.module), std::filesystem::canonical("/proc/self/exe"));
  EXPECT_EQ(f.offset, ra - reinterpret_cast<std::uint64_t>(info.dli_fbase));  // PIE: relative to the load base
  EXPECT_NE(f.function.find("known_call_site"), std::string::npos) << f.function;
  EXPECT_EQ(std::filesystem::path(f.file).filename(), "test_symbolize.cpp") << f.file;
  EXPECT_EQ(f.line, scalefuzz_symbolize_test::kCallLine);

  const Frame& libc = rt.sites[0].symbolized[1];
  EXPECT_NE(libc.module.find("libc"), std::string::npos) << libc.module;
  EXPECT_TRUE(is_runtime_frame(libc));
  EXPECT_FALSE(is_runtime_frame(f));

  // The application frame skips runtime frames even when they are innermost.
  CallSiteInfo reversed = rt.sites[0];
  std::swap(reversed.symbolized[0], reversed.symbolized[1]);
  ASSERT_NE(application_frame(reversed), nullptr);
  EXPECT_EQ(application_frame(reversed)->address, ra);

  std::string text = format_frame(f);
  EXPECT_NE(text.find("known_call_site"), std::string::npos) << text;
  EXPECT_NE(text.find("test_symbolize.cpp:" + std::to_string(scalefuzz_symbolize_test::kCallLine) + ")"),
            std::string::npos)
      << text;
}

TEST(TraceSymbolize, MissingModulesFileLeavesFramesRawWithWarning) {
  TempRunDir dir;
  testing::RankBuilder b(0, 1);
  b.add(OpClass::Init);
  CallSiteInfo site;
  site.stable_hash = 1;
  site.frames = {0x1234};
  b.rt.sites.push_back(site);
  write_rank(dir.path(), b.rt);
  RankTrace rt = read_rank(dir.path(), 0);
  symbolize(dir.path(), rt);
  ASSERT_EQ(rt.sites[0].symbolized.size(), 1u);
  EXPECT_TRUE(rt.sites[0].symbolized[0].module.empty());
  EXPECT_EQ(format_frame(rt.sites[0].symbolized[0]), "0x1234");
  EXPECT_EQ(application_frame(CallSiteInfo{}), nullptr);
  bool warned = false;
  for (const auto& w : rt.warnings) warned |= w.find("modules: file missing") != std::string::npos;
  EXPECT_TRUE(warned);
}

TEST(TraceSymbolize, ModulesFileParsing) {
  TempRunDir dir;
  std::filesystem::path file = dir.path() / "m.modules";
  std::ofstream(file) << "0x1000 0x2000 0x0 /opt/my app/bin\n"
                         "garbage line\n"
                         "3000 2000 0 /bad/range\n"
                         "\n"
                         "7f0000 7f8000 1000 /lib/libfoo.so\n";
  std::size_t bad = 0;
  auto segs = read_modules(file, &bad);
  ASSERT_EQ(segs.size(), 2u);
  EXPECT_EQ(bad, 2u);
  EXPECT_EQ(segs[0].path, "/opt/my app/bin");
  EXPECT_EQ(segs[1].begin, 0x7f0000u);
  EXPECT_EQ(segs[1].offset, 0x1000u);

  std::vector<Frame> frames = symbolize_addresses({0x7f0010, 0x5}, segs);  // libfoo does not exist: best effort
  EXPECT_EQ(frames[0].module, "/lib/libfoo.so");
  EXPECT_EQ(frames[0].offset, 0x1010u);
  EXPECT_EQ(format_frame(frames[0]), "libfoo.so+0x1010");
  EXPECT_TRUE(frames[1].module.empty());

  write_modules(file, segs);
  EXPECT_EQ(read_modules(file).size(), 2u);
  EXPECT_THROW(read_modules(dir.path() / "absent"), TraceError);
}

}  // namespace
// Issue 19 defect 4: a modules file that never ends (a link to /dev/zero)
// is read bounded, and the rank says its frames were not all symbolized.
// Checked in a child under a 1 GiB memory limit and 20 s: before the fix
// the reader grew without end.
TEST(IssueDefect4, ModulesFileThatNeverEndsIsBoundedAndWarned) {
  TempRunDir dir;
  std::filesystem::create_directories(dir.path() / "ranks");
  std::filesystem::create_symlink("/dev/zero", dir.path() / "ranks" / "1.modules");
  const pid_t pid = fork();
  if (pid == 0) {
    rlimit memory{1UL << 30, 1UL << 30};
    setrlimit(RLIMIT_AS, &memory);
    alarm(20);
    RankTrace rank;
    rank.rank = 1;
    symbolize(dir.path(), rank);
    bool warned = false;
    for (const auto& w : rank.warnings) warned = warned || w.find("larger than") != std::string::npos;
    bool truncated = false;
    read_modules(dir.path() / "ranks" / "1.modules", nullptr, &truncated);
    _exit(warned && truncated ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << "killed by signal " << WTERMSIG(status) << " (unbounded read)";
  EXPECT_EQ(WEXITSTATUS(status), 0) << "no warning that the modules file was cut";
}

}  // namespace scalefuzz::trace
