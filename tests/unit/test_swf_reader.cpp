/* The SWF reader on small texts written here (every expected value is read off the text by hand), on gzip files
 * this test writes with zlib, and on the real KTH SP2 log (facts from the traces README and from a plain zlib scan). */
#include "core/errors.hpp"
#include "support/input_error.hpp"
#include "workload/swf_reader.hpp"
#include "workload/workload.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <zlib.h>

namespace fs = std::filesystem;
using jobsched::InputError;
using jobsched::parse_swf;
using jobsched::read_swf;
using jobsched::SwfFile;

namespace {

const std::string kth_path = SOURCE_DIR "/../shared/data/traces/KTH-SP2-1996-2.1-cln.swf.gz";

using jobsched::testing::input_error_of;

/* A fresh folder under the system temp folder, removed at the end of the test. */
class TempDir {
 public:
  TempDir()
  {
    std::string tmpl = (fs::temp_directory_path() / "jobsched-swf-XXXXXX").string();
    if (mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = tmpl;
  }
  ~TempDir()
  {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

void write_gzip(const fs::path& p, const std::string& text)
{
  gzFile f = gzopen(p.string().c_str(), "wb");
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(gzwrite(f, text.data(), static_cast<unsigned>(text.size())), static_cast<int>(text.size()));
  ASSERT_EQ(gzclose(f), Z_OK);
}

void write_plain(const fs::path& p, const std::string& text)
{
  std::ofstream out(p, std::ios::binary);
  out << text;
}

// Job 1: size 8 requested (field 8) though 4 allocated (field 5), estimate 300, memory 2048 KB, user 7.
const std::string line_a = "1 0 5 100 4 -1 2048 8 300 -1 1 7 7 -1 -1 -1 -1 -1";
// Job 2: requested processors -1 -> size from field 5 (6); requested time -1; used memory -1; fractional submit.
const std::string line_b = "2 10.5 0 50 6 -1 -1 -1 -1 -1 1 3 3 -1 -1 -1 -1 -1";

} // namespace

TEST(SwfReader, FieldsOfAJobLine)
{
  SwfFile f = parse_swf(line_a + "\n", "mem.swf");
  ASSERT_EQ(f.records.size(), 1u);
  const auto& j = f.records[0].job;
  EXPECT_EQ(j.id, 1);
  EXPECT_DOUBLE_EQ(j.submit_time, 0);
  EXPECT_DOUBLE_EQ(j.run_time, 100);
  EXPECT_EQ(j.size, 8); // field 8 wins over field 5
  EXPECT_DOUBLE_EQ(j.estimate, 300);
  EXPECT_DOUBLE_EQ(j.memory_kb, 2048);
  EXPECT_EQ(j.user, 7);
  EXPECT_FALSE(j.kill_at_estimate);
  EXPECT_EQ(f.records[0].origin, "mem.swf:1");
  EXPECT_EQ(f.max_procs, 0); // no header
}

TEST(SwfReader, SizeFallsBackToAllocatedAndEstimateToMinusOne)
{
  SwfFile f = parse_swf(line_b + "\n", "mem.swf");
  ASSERT_EQ(f.records.size(), 1u);
  const auto& j = f.records[0].job;
  EXPECT_EQ(j.id, 2);
  EXPECT_DOUBLE_EQ(j.submit_time, 10.5);
  EXPECT_EQ(j.size, 6);             // field 8 is -1: field 5
  EXPECT_DOUBLE_EQ(j.estimate, -1); // field 9 is -1: left for build_workload
  EXPECT_DOUBLE_EQ(j.memory_kb, -1);
  EXPECT_EQ(j.user, 3);
}

TEST(SwfReader, ZeroRequestedProcessorsAlsoFallsBack)
{
  // Field 8 = 0 is no request either; field 5 = 12.
  SwfFile f = parse_swf("3 0 0 10 12 -1 0 0 0 -1 1 1 1 -1 -1 -1 -1 -1\n", "mem.swf");
  ASSERT_EQ(f.records.size(), 1u);
  EXPECT_EQ(f.records[0].job.size, 12);
  EXPECT_DOUBLE_EQ(f.records[0].job.estimate, -1); // requested time 0: none
  EXPECT_DOUBLE_EQ(f.records[0].job.memory_kb, -1);
}

TEST(SwfReader, MemoryIsUsedMemoryElseRequestedMemory)
{
  // Field 7 (used) 2048 and field 10 (requested) 4096: used. Field 7 -1, field 10 4096: requested. Field 7 0 and
  // field 10 0: none.
  SwfFile f = parse_swf("1 0 0 10 4 -1 2048 4 20 4096 1 1 1 -1 -1 -1 -1 -1\n"
                        "2 0 0 10 4 -1 -1 4 20 4096 1 1 1 -1 -1 -1 -1 -1\n"
                        "3 0 0 10 4 -1 0 4 20 0 1 1 1 -1 -1 -1 -1 -1\n",
                        "mem.swf");
  ASSERT_EQ(f.records.size(), 3u);
  EXPECT_DOUBLE_EQ(f.records[0].job.memory_kb, 2048);
  EXPECT_DOUBLE_EQ(f.records[1].job.memory_kb, 4096);
  EXPECT_DOUBLE_EQ(f.records[2].job.memory_kb, -1);
}

TEST(SwfReader, NoSizeAtAllIsKeptForBuildWorkloadToSkip)
{
  // Like KTH job 27313: both processor fields -1.
  SwfFile f = parse_swf("27313 100 480 1 -1 -1 -1 -1 600 -1 1 48 225 -1 -1 -1 -1 -1\n", "mem.swf");
  ASSERT_EQ(f.records.size(), 1u);
  EXPECT_EQ(f.records[0].job.size, -1);
  EXPECT_DOUBLE_EQ(f.records[0].job.estimate, 600);
}

TEST(SwfReader, HeaderMaxProcsWinsOverMaxNodes)
{
  SwfFile f = parse_swf("; MaxNodes: 32\n; MaxProcs: 256\n" + line_a + "\n", "mem.swf");
  EXPECT_EQ(f.max_procs, 256);
  SwfFile g = parse_swf("; MaxProcs: 256\n; MaxNodes: 32\n" + line_a + "\n", "mem.swf");
  EXPECT_EQ(g.max_procs, 256);
}

TEST(SwfReader, HeaderMaxNodesWhenNoMaxProcs)
{
  SwfFile f = parse_swf("; Computer: test\n; MaxNodes: 128\n" + line_a + "\n", "mem.swf");
  EXPECT_EQ(f.max_procs, 128);
  SwfFile g = parse_swf("; MaxNodes: -1\n" + line_a + "\n", "mem.swf"); // not positive: ignored
  EXPECT_EQ(g.max_procs, 0);
}

TEST(SwfReader, CommentsAndBlankLinesAreSkippedButCounted)
{
  std::string text;
  text += "; Version: 2.2\n";       // 1
  text += "\n";                     // 2
  text += "   \t \n";               // 3 (whitespace only)
  text += line_a + "\n";            // 4
  text += "  ; indented comment\n"; // 5
  text += line_b + "\n";            // 6
  SwfFile f = parse_swf(text, "c.swf");
  ASSERT_EQ(f.records.size(), 2u);
  EXPECT_EQ(f.records[0].origin, "c.swf:4");
  EXPECT_EQ(f.records[1].origin, "c.swf:6");
  EXPECT_EQ(f.records[0].job.id, 1);
  EXPECT_EQ(f.records[1].job.id, 2);
}

TEST(SwfReader, EmptyTextGivesNoRecords)
{
  SwfFile f = parse_swf("", "empty.swf");
  EXPECT_TRUE(f.records.empty());
  EXPECT_EQ(f.max_procs, 0);
}

TEST(SwfReader, CrLfLineEnds)
{
  const std::string text = "; MaxProcs: 64\r\n\r\n" + line_a + "\r\n" + line_b + "\r\n";
  SwfFile f = parse_swf(text, "dos.swf");
  EXPECT_EQ(f.max_procs, 64);
  ASSERT_EQ(f.records.size(), 2u);
  EXPECT_EQ(f.records[0].job.user, 7);
  EXPECT_DOUBLE_EQ(f.records[0].job.estimate, 300);
  EXPECT_EQ(f.records[1].job.size, 6);
  EXPECT_EQ(f.records[1].origin, "dos.swf:4");
}

/* The reader walks the text between newlines: a last line without one is read, and a NUL ends a line's fields as its
 * end does (the fields after it are not read: 3 fields here, then an error naming line 2). */
TEST(SwfReader, LastLineWithoutNewlineAndNulInALine)
{
  SwfFile f = parse_swf(line_a + "\n" + line_b, "last.swf");
  ASSERT_EQ(f.records.size(), 2u);
  EXPECT_EQ(f.records[1].job.id, 2);
  EXPECT_DOUBLE_EQ(f.records[1].job.submit_time, 10.5);
  EXPECT_EQ(f.records[1].origin, "last.swf:2");
  const std::string text = line_a + "\n" + std::string("3 20 0", 6) + std::string(1, '\0') + " 5 4 -1\n";
  EXPECT_EQ(input_error_of([&] { parse_swf(text, "nul.swf"); }), "nul.swf:2: expected 18 fields, found 3");
  // A header line is read whole; a line of blanks only is skipped, also when it is the last one.
  f = parse_swf(line_a + "\n; MaxNodes: 9 MaxProcs: 12\n \t", "h.swf");
  EXPECT_EQ(f.records.size(), 1u);
  EXPECT_EQ(f.max_procs, 12);
}

TEST(SwfReader, TabsAndTrailingSpacesSeparateFields)
{
  SwfFile f = parse_swf("5\t20\t0\t30\t2\t-1\t-1\t2\t60\t-1\t1\t4\t4\t-1\t-1\t-1\t-1\t-1   \n", "tab.swf");
  ASSERT_EQ(f.records.size(), 1u);
  EXPECT_EQ(f.records[0].job.id, 5);
  EXPECT_DOUBLE_EQ(f.records[0].job.submit_time, 20);
  EXPECT_DOUBLE_EQ(f.records[0].job.estimate, 60);
}

TEST(SwfReader, SeventeenFieldsIsAnErrorNamingTheLine)
{
  const std::string text = "; header\n" + line_a + "\n" + "9 0 5 100 4 -1 -1 8 300 -1 1 7 7 -1 -1 -1 -1\n";
  std::string msg = input_error_of([&] { parse_swf(text, "short.swf"); });
  EXPECT_NE(msg.find("short.swf:3"), std::string::npos) << msg;
  EXPECT_NE(msg.find("18 fields"), std::string::npos) << msg;
  EXPECT_NE(msg.find("17"), std::string::npos) << msg;
}

TEST(SwfReader, NineteenFieldsIsAnErrorNamingTheLine)
{
  const std::string text = line_a + "\n" + line_b + "\n" + line_a + " 99\n";
  std::string msg = input_error_of([&] { parse_swf(text, "long.swf"); });
  EXPECT_NE(msg.find("long.swf:3"), std::string::npos) << msg;
  EXPECT_NE(msg.find("more than 18 fields"), std::string::npos) << msg;
}

TEST(SwfReader, NonNumericFieldIsAnErrorNamingTheField)
{
  // Field 4 (run time) is "12abc".
  const std::string text = "\n\n1 0 5 12abc 4 -1 -1 8 300 -1 1 7 7 -1 -1 -1 -1 -1\n";
  std::string msg = input_error_of([&] { parse_swf(text, "bad.swf"); });
  EXPECT_NE(msg.find("bad.swf:3"), std::string::npos) << msg;
  EXPECT_NE(msg.find("field 4"), std::string::npos) << msg;
  EXPECT_NE(msg.find("run time"), std::string::npos) << msg;
  EXPECT_NE(msg.find("'12abc'"), std::string::npos) << msg;
}

TEST(SwfReader, NonNumericLastFieldAndNanAreErrors)
{
  std::string msg = input_error_of([] { parse_swf("1 0 5 10 4 -1 -1 8 300 -1 1 7 7 -1 -1 -1 -1 x\n", "b.swf"); });
  EXPECT_NE(msg.find("b.swf:1"), std::string::npos) << msg;
  EXPECT_NE(msg.find("field 18"), std::string::npos) << msg;
  EXPECT_NE(msg.find("think time"), std::string::npos) << msg;

  msg = input_error_of([] { parse_swf("1 nan 5 10 4 -1 -1 8 300 -1 1 7 7 -1 -1 -1 -1 -1\n", "n.swf"); });
  EXPECT_NE(msg.find("n.swf:1"), std::string::npos) << msg;
  EXPECT_NE(msg.find("field 2"), std::string::npos) << msg;
  EXPECT_NE(msg.find("submit time"), std::string::npos) << msg;
}

TEST(SwfReader, NegativeSubmitTimeIsAnError)
{
  std::string msg = input_error_of([] { parse_swf("1 -5 0 10 4 -1 -1 8 300 -1 1 7 7 -1 -1 -1 -1 -1\n", "neg.swf"); });
  EXPECT_NE(msg.find("neg.swf:1"), std::string::npos) << msg;
  EXPECT_NE(msg.find("submit time"), std::string::npos) << msg;
}

/* A negative job number is SWF's "missing" (-1) or a mangled log: refused at its line for every policy, rather than
 * taken as an id by most and refused mid-run, without its line, by gang-now (whose map marks free entries negative). */
TEST(SwfReader, NegativeJobNumberIsAnErrorNamingTheLine)
{
  std::string msg = input_error_of([] {
    parse_swf("1 0 0 10 4 -1 -1 8 300 -1 1 7 7 -1 -1 -1 -1 -1\n-5 1 0 10 4 -1 -1 8 300 -1 1 7 7 -1 -1 -1 -1 -1\n",
              "ids.swf");
  });
  EXPECT_NE(msg.find("ids.swf:2: field 1 (job number) -5 is negative"), std::string::npos) << msg;
  msg = input_error_of([] { parse_swf("-1 0 0 10 4 -1 -1 8 300 -1 1 7 7 -1 -1 -1 -1 -1\n", "ids.swf"); });
  EXPECT_NE(msg.find("ids.swf:1: field 1 (job number) -1 is negative"), std::string::npos) << msg;
  SwfFile zero = parse_swf("0 0 0 10 4 -1 -1 8 300 -1 1 7 7 -1 -1 -1 -1 -1\n", "ids.swf");
  ASSERT_EQ(zero.records.size(), 1u);
  EXPECT_EQ(zero.records[0].job.id, 0);
}

TEST(SwfReader, ReadsAGzipFile)
{
  TempDir dir;
  fs::path p = dir.path() / "small.swf.gz";
  write_gzip(p, "; MaxProcs: 48\n" + line_a + "\n" + line_b + "\n");
  SwfFile f = read_swf(p.string());
  EXPECT_EQ(f.max_procs, 48);
  ASSERT_EQ(f.records.size(), 2u);
  EXPECT_EQ(f.records[0].job.size, 8);
  EXPECT_EQ(f.records[1].job.size, 6);
  EXPECT_EQ(f.records[1].origin, p.string() + ":3"); // origin is the path given, then the line
}

TEST(SwfReader, ReadsAPlainFile)
{
  TempDir dir;
  fs::path p = dir.path() / "small.swf";
  write_plain(p, line_b + "\n" + line_a + "\n");
  SwfFile f = read_swf(p.string());
  ASSERT_EQ(f.records.size(), 2u);
  EXPECT_EQ(f.records[0].job.id, 2);
  EXPECT_EQ(f.records[1].job.id, 1);
  EXPECT_EQ(f.records[1].origin, p.string() + ":2");
}

TEST(SwfReader, MalformedLineInAGzipFileNamesThePathAndLine)
{
  TempDir dir;
  fs::path p = dir.path() / "bad.swf.gz";
  write_gzip(p, "; c\n; c\n" + line_a + "\n1 2 3\n");
  std::string msg = input_error_of([&] { read_swf(p.string()); });
  EXPECT_NE(msg.find(p.string() + ":4"), std::string::npos) << msg;
}

TEST(SwfReader, MissingFileNamesThePath)
{
  TempDir dir;
  fs::path p = dir.path() / "no-such-trace.swf.gz";
  std::string msg = input_error_of([&] { read_swf(p.string()); });
  EXPECT_NE(msg.find(p.string()), std::string::npos) << msg;
  EXPECT_NE(msg.find("cannot open"), std::string::npos) << msg;
}

TEST(SwfReader, TruncatedGzipFileIsAnInputError)
{
  TempDir dir;
  fs::path whole = dir.path() / "whole.swf.gz";
  std::string text;
  for (int i = 0; i < 2000; i++)
    text += std::to_string(i + 1) + " " + std::to_string(i) + " 0 100 4 -1 -1 4 300 -1 1 7 7 -1 -1 -1 -1 -1\n";
  write_gzip(whole, text);
  std::ifstream in(whole, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GT(bytes.size(), 100u);
  fs::path cut = dir.path() / "cut.swf.gz";
  write_plain(cut, bytes.substr(0, bytes.size() / 2));
  std::string msg = input_error_of([&] { read_swf(cut.string()); });
  EXPECT_NE(msg.find(cut.string()), std::string::npos) << msg;
  EXPECT_NE(msg.find("cannot read"), std::string::npos) << msg;
}

TEST(SwfReader, RealKthTrace)
{
  if (!fs::exists(kth_path)) GTEST_SKIP() << kth_path << " is absent";
  SwfFile f = read_swf(kth_path);
  // Traces README: 28,476 jobs, numbers 15..28490 consecutive, MaxNodes / MaxProcs 100.
  ASSERT_EQ(f.records.size(), 28476u);
  EXPECT_EQ(f.max_procs, 100);
  EXPECT_EQ(f.records.front().job.id, 15);
  EXPECT_EQ(f.records.back().job.id, 28490);
  for (size_t i = 0; i < f.records.size(); i++)
    if (f.records[i].job.id != static_cast<jobsched::JobId>(15 + i)) {
      ADD_FAILURE() << "record " << i << " has job number " << f.records[i].job.id;
      break;
    }
  // First data line, read with zcat: "15 599850 192180 3477 4 -1 -1 4 53940 -1 1 12 12 ...", after 24 header lines.
  const auto& first = f.records.front();
  EXPECT_EQ(first.origin, kth_path + ":25");
  EXPECT_DOUBLE_EQ(first.job.submit_time, 599850);
  EXPECT_DOUBLE_EQ(first.job.run_time, 3477);
  EXPECT_EQ(first.job.size, 4);
  EXPECT_DOUBLE_EQ(first.job.estimate, 53940);
  EXPECT_EQ(first.job.user, 12);
  // README: "Requested time (field 9) is present for every job".
  long without_estimate = 0;
  for (const auto& r : f.records)
    without_estimate += r.job.estimate <= 0;
  EXPECT_EQ(without_estimate, 0);
}

/* Counts and identifiers must be whole numbers in range (a cast of 3e9 to int or of 1e30 to an id is undefined
 * behaviour; 4.7 processors would silently become 4); times beyond 1e12 s are refused when the workload is built. */
TEST(SwfReader, CountsAndIdentifiersAreWholeNumbersInRange)
{
  auto error_of = [](const std::string& text) {
    try {
      parse_swf(text, "bad.swf");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(error_of("1 0 0 10 4.7 -1 -1 4.7 60 -1 1 1 1 -1 -1 -1 -1 -1\n")
                .find("bad.swf:1: field 8 (requested processors) is not a whole number: 4.7"),
            std::string::npos);
  EXPECT_NE(error_of("1 0 0 10 4 -1 -1 3e9 60 -1 1 1 1 -1 -1 -1 -1 -1\n")
                .find("bad.swf:1: field 8 (requested processors) 3e+09 is out of range"),
            std::string::npos);
  EXPECT_NE(error_of("1e30 0 0 10 4 -1 -1 4 60 -1 1 1 1 -1 -1 -1 -1 -1\n").find("bad.swf:1: field 1 (job number)"),
            std::string::npos);
  EXPECT_NE(error_of("1 0 0 10 4 -1 -1 4 60 -1 1 5e12 1 -1 -1 -1 -1 -1\n").find("bad.swf:1: field 12 (user id)"),
            std::string::npos);
  SwfFile ok = parse_swf("1 0 0 1e300 4 -1 -1 4 60 -1 1 1 1 -1 -1 -1 -1 -1\n", "big.swf");
  try {
    jobsched::build_workload("w", ok.records, {}, 16, 0);
    FAIL() << "a run time of 1e300 s was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("big.swf:1: job 1: run time 1e+300"), std::string::npos) << e.what();
  }
}

/* size_field: requested (field 8, else 5) or allocated (field 5, else 8); the recorded start is submit + wait. */
TEST(SwfReader, SizeFieldChoosesRequestedOrAllocated)
{
  const std::string line = "1 100 20 10 6 -1 -1 8 60 -1 1 1 1 -1 -1 -1 -1 -1\n";
  EXPECT_EQ(parse_swf(line, "s.swf").records[0].job.size, 8);
  EXPECT_EQ(parse_swf(line, "s.swf", jobsched::SizeField::allocated).records[0].job.size, 6);
  EXPECT_EQ(parse_swf(line, "s.swf").records[0].job.recorded_start, 120);
  EXPECT_EQ(parse_swf(line, "s.swf").records[0].job.recorded_size, 6);
  const std::string no_alloc = "1 100 -1 10 -1 -1 -1 8 60 -1 1 1 1 -1 -1 -1 -1 -1\n";
  EXPECT_EQ(parse_swf(no_alloc, "s.swf", jobsched::SizeField::allocated).records[0].job.size, 8);
  EXPECT_EQ(parse_swf(no_alloc, "s.swf").records[0].job.recorded_start, -1);
}
