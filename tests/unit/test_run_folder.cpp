/* A run's outputs are committed as a set: a reader sees every file of one run or none. */
#include "core/errors.hpp"
#include "output/run_folder.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

using namespace jobsched;
namespace fs = std::filesystem;

namespace {

struct Sandbox {
  fs::path dir = fs::temp_directory_path() / ("jobsched-runfolder-" + std::to_string(getpid()) + "-" +
                                              ::testing::UnitTest::GetInstance()->current_test_info()->name());
  Sandbox() { fs::create_directories(dir); }
  ~Sandbox() { fs::remove_all(dir); }
};

std::string slurp(const fs::path& p)
{
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void put(const fs::path& p, const std::string& text)
{
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

std::vector<std::string> listing(const fs::path& dir)
{
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir))
    out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(RunFolder, ReplacesThePreviousRunAndKeepsOtherFiles)
{
  Sandbox s;
  fs::path out = s.dir / "run";
  put(out / "jobs.csv", "old jobs");
  put(out / "summary.json", "old summary");
  put(out / "plots" / "gantt.svg", "old figure");
  put(out / "scenario.yaml", "a sweep's resolved scenario");
  {
    RunFolder f(out);
    f.open("trace.csv") << "new trace";
    f.write("jobs.csv", "new jobs");
    // Nothing is visible before the commit.
    EXPECT_EQ(slurp(out / "jobs.csv"), "old jobs");
    EXPECT_FALSE(fs::exists(out / "trace.csv"));
    f.commit();
  }
  EXPECT_EQ(listing(out), (std::vector<std::string>{"jobs.csv", "scenario.yaml", "trace.csv"}));
  EXPECT_EQ(slurp(out / "jobs.csv"), "new jobs");
  EXPECT_EQ(slurp(out / "trace.csv"), "new trace");
  EXPECT_EQ(slurp(out / "scenario.yaml"), "a sweep's resolved scenario");
  EXPECT_EQ(listing(s.dir), (std::vector<std::string>{"run"})); // no hidden folder left
}

/* A rerun into an existing folder replaces the outputs and nothing else: `.git`, hidden files and a user's files stay
 * (the whole folder used to be swapped for a new one that carried over only the entries not starting with a dot), and
 * the previous run's outputs this run does not write are gone. */
TEST(RunFolder, AnExistingFolderKeepsEverythingButTheOutputs)
{
  Sandbox s;
  fs::path out = s.dir / "run";
  put(out / ".git" / "HEAD", "ref: refs/heads/main");
  put(out / ".hidden", "hidden");
  put(out / "notes.txt", "notes");
  put(out / "jobs.csv", "old jobs");
  put(out / "trace.csv", "old trace");
  put(out / "plots" / "gantt.svg", "old figure");
  {
    RunFolder f(out);
    f.write("jobs.csv", "new jobs");
    f.write("summary.json", "{}");
    EXPECT_EQ(slurp(out / "jobs.csv"), "old jobs"); // nothing replaced before the commit
    f.commit();
  }
  EXPECT_EQ(listing(out), (std::vector<std::string>{".git", ".hidden", "jobs.csv", "notes.txt", "summary.json"}));
  EXPECT_EQ(slurp(out / ".git" / "HEAD"), "ref: refs/heads/main");
  EXPECT_EQ(slurp(out / ".hidden"), "hidden");
  EXPECT_EQ(slurp(out / "notes.txt"), "notes");
  EXPECT_EQ(slurp(out / "jobs.csv"), "new jobs");
  EXPECT_EQ(slurp(out / "summary.json"), "{}");
  EXPECT_EQ(listing(s.dir), (std::vector<std::string>{"run"}));
}

/* `--out .`, `--out ./` and `--out e2/..` name the current folder: the run writes its outputs into it and leaves the
 * rest alone (renaming the current folder away took `.git` with it). */
TEST(RunFolder, TheCurrentFolderKeepsEverythingButTheOutputs)
{
  Sandbox s;
  fs::path here = s.dir / "work";
  put(here / ".git" / "HEAD", "ref");
  put(here / ".hidden", "hidden");
  put(here / "log.txt", "the shell's redirect");
  put(here / "trace.csv", "old trace");
  fs::create_directories(here / "e2");
  const fs::path before = fs::current_path();
  fs::current_path(here);
  int run = 0;
  for (const char* dir : {".", "./", "e2/.."}) {
    RunFolder f(dir);
    f.write("jobs.csv", "jobs " + std::to_string(++run));
    f.commit();
  }
  fs::current_path(before);
  EXPECT_EQ(listing(here), (std::vector<std::string>{".git", ".hidden", "e2", "jobs.csv", "log.txt"}));
  EXPECT_EQ(slurp(here / ".git" / "HEAD"), "ref");
  EXPECT_EQ(slurp(here / ".hidden"), "hidden");
  EXPECT_EQ(slurp(here / "log.txt"), "the shell's redirect");
  EXPECT_EQ(slurp(here / "jobs.csv"), "jobs 3");
  EXPECT_EQ(listing(s.dir), (std::vector<std::string>{"work"}));
}

/* A folder of the user's named like an output is never removed: `plots` goes only when it holds nothing but figures
 * (an earlier run's, stale), and a folder where the run writes a file refuses the run before anything is replaced
 * (it used to be moved aside and deleted, after jobs.csv had already been replaced). */
TEST(RunFolder, AUsersFolderNamedLikeAnOutputStays)
{
  Sandbox s;
  fs::path out = s.dir / "run";
  put(out / "jobs.csv", "old jobs");
  put(out / "plots" / "notes.txt", "the user's");
  put(out / "plots" / "gantt.svg", "a figure");
  {
    RunFolder f(out);
    f.write("jobs.csv", "new jobs");
    f.commit();
  }
  EXPECT_EQ(listing(out), (std::vector<std::string>{"jobs.csv", "plots"}));
  EXPECT_EQ(listing(out / "plots"), (std::vector<std::string>{"gantt.svg", "notes.txt"}));

  fs::path taken = s.dir / "taken";
  put(taken / "jobs.csv", "old jobs");
  put(taken / "trace.csv" / "b", "the user's");
  {
    RunFolder f(taken);
    f.write("jobs.csv", "new jobs");
    f.write("trace.csv", "new trace");
    EXPECT_THROW(f.commit(), InputError);
  }
  EXPECT_EQ(slurp(taken / "jobs.csv"), "old jobs");
  EXPECT_EQ(slurp(taken / "trace.csv" / "b"), "the user's");
  EXPECT_EQ(listing(taken), (std::vector<std::string>{"jobs.csv", "trace.csv"}));
}

/* Pieces of 32 KiB or more go to the file from where they are, after what the buffer holds: the file has every piece,
 * small and large, in the order written (each piece's bytes distinct from its neighbours'). */
TEST(RunFolder, LargePiecesKeepTheirPlaceAmongSmallOnes)
{
  Sandbox s;
  fs::path out = s.dir / "run";
  const std::vector<std::size_t> sizes{10, 40000, 5, 70000, 32767, 32768, 3, 1 << 20, 1, 2 << 20, 7};
  std::string expected;
  {
    RunFolder f(out);
    std::ostream& file = f.open("trace.csv");
    for (std::size_t i = 0; i < sizes.size(); i++) {
      std::string piece(sizes[i], static_cast<char>('a' + i));
      piece.back() = '\n';
      file.write(piece.data(), static_cast<std::streamsize>(piece.size()));
      expected += piece;
    }
    EXPECT_TRUE(file.good());
    f.commit();
  }
  const std::string written = slurp(out / "trace.csv");
  EXPECT_EQ(written.size(), expected.size());
  EXPECT_TRUE(written == expected);
}

TEST(RunFolder, AFailedRunLeavesNothing)
{
  Sandbox s;
  fs::path out = s.dir / "run";
  put(out / "jobs.csv", "old jobs");
  {
    RunFolder f(out);
    f.open("trace.csv") << "partial trace";
    // destroyed without commit, as when the simulation throws
  }
  EXPECT_EQ(listing(out), (std::vector<std::string>{"jobs.csv"}));
  EXPECT_EQ(slurp(out / "jobs.csv"), "old jobs");
  EXPECT_EQ(listing(s.dir), (std::vector<std::string>{"run"}));
  {
    RunFolder f(s.dir / "fresh");
    f.write("jobs.csv", "x");
  }
  EXPECT_FALSE(fs::exists(s.dir / "fresh"));
  EXPECT_EQ(listing(s.dir), (std::vector<std::string>{"run"}));
}

TEST(RunFolder, AWriteErrorNamesTheFileAndTheReason)
{
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  Sandbox s;
  RunFolder f(s.dir / "run");
  f.open("jobs.csv") << "x";
  // summary.json in the hidden folder is /dev/full: every write fails with ENOSPC, as on a full disk.
  fs::path hidden;
  for (const auto& e : fs::directory_iterator(s.dir))
    hidden = e.path();
  ASSERT_EQ(hidden.filename().string().rfind(".run.tmp-", 0), 0U) << hidden;
  fs::create_symlink("/dev/full", hidden / "summary.json");
  f.write("summary.json", std::string(3 << 20, 'x')); // larger than the buffer: fails while writing
  try {
    f.commit();
    FAIL() << "a write to a full disk was not reported";
  } catch (const InputError& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("run/summary.json: cannot write (No space left on device)"), std::string::npos) << what;
  }
  EXPECT_FALSE(fs::exists(s.dir / "run")); // nothing committed
}

// A killed run leaves its hidden folder behind; the next run into the same folder on this host removes the folders of
// processes that no longer run, and keeps those of a live process and of another host (these used to pile up).
TEST(RunFolder, TheNextRunRemovesTheHiddenFoldersOfKilledRuns)
{
  Sandbox s;
  char host[256] = {};
  ASSERT_EQ(gethostname(host, sizeof host - 1), 0);
  pid_t dead = fork(); // a process id that no longer runs: a child that has exited and been waited for
  if (dead == 0) _exit(0);
  ASSERT_GT(dead, 0);
  ASSERT_EQ(waitpid(dead, nullptr, 0), dead);
  const std::string here = std::string(host) + "-";
  const std::string killed = ".run.tmp-" + here + std::to_string(dead);
  const std::string killed_in_commit = ".run.old-" + here + std::to_string(dead);
  const std::string live = ".run.tmp-" + here + std::to_string(getppid());
  const std::string elsewhere = ".run.tmp-another-host-" + std::to_string(dead);
  const std::string other_folder = ".other.tmp-" + here + std::to_string(dead);
  for (const auto& name : {killed, killed_in_commit, live, elsewhere, other_folder})
    put(s.dir / name / "trace.csv", "partial");
  {
    RunFolder f(s.dir / "run");
    f.write("summary.json", "{}");
    f.commit();
  }
  std::vector<std::string> kept{elsewhere, other_folder, live, "run"};
  std::sort(kept.begin(), kept.end());
  EXPECT_EQ(listing(s.dir), kept);
}

} // namespace
