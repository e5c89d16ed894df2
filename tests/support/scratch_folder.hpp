/* A scratch folder per test, named after the process and the test, removed at the end: where tests write the
 * scenarios, platforms and traces they run. */
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace jobsched::testing {

struct ScratchFolder {
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("jobsched-test-" + std::to_string(getpid()) + "-" +
                                                ::testing::UnitTest::GetInstance()->current_test_info()->name());
  ScratchFolder() { std::filesystem::create_directories(dir); }
  ~ScratchFolder() { std::filesystem::remove_all(dir); }
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;
  /* Write `text` to `name` (folders created as needed); returns its path. */
  std::filesystem::path write(const std::string& name, const std::string& text) const
  {
    std::filesystem::create_directories((dir / name).parent_path());
    std::ofstream(dir / name) << text;
    return dir / name;
  }
};

} // namespace jobsched::testing
