/* Runs a simulation in a forked child and brings back numbers: SimGrid allows one engine per process, so every
 * simulating test gets a fresh process whether ctest runs it alone or the whole binary runs at once. */
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace jobsched::testing {

inline std::vector<double> in_child(const std::function<std::vector<double>()>& body)
{
  int fds[2];
  if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    int status = 0;
    try {
      auto values = body();
      size_t n = values.size();
      if (write(fds[1], &n, sizeof n) != sizeof n ||
          write(fds[1], values.data(), n * sizeof(double)) != static_cast<ssize_t>(n * sizeof(double)))
        status = 3;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "child failed: %s\n", e.what());
      status = 2;
    }
    close(fds[1]);
    _exit(status);
  }
  close(fds[1]);
  size_t n = 0;
  std::vector<double> values;
  if (read(fds[0], &n, sizeof n) == sizeof n) {
    values.resize(n);
    size_t got = 0;
    while (got < n * sizeof(double)) {
      ssize_t r = read(fds[0], reinterpret_cast<char*>(values.data()) + got, n * sizeof(double) - got);
      if (r <= 0) break;
      got += static_cast<size_t>(r);
    }
  }
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the simulating child process failed";
  return values;
}

} // namespace jobsched::testing
