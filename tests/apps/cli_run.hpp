#pragma once
// Running the linkdyn command line from a test: its exit code and output, and input files.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <unistd.h>

#include <array>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <thread>
#include <fstream>
#include <string>

namespace linkdyn::test {

struct CliRun {
  int code = -1;
  std::string output;  // stdout and stderr
};

inline CliRun run(const std::string& args) {
  CliRun r;
  const std::string cmd = std::string(LINKDYN_CLI) + " " + args + " 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) return r;
  std::array<char, 4096> buf{};
  while (fgets(buf.data(), buf.size(), pipe)) r.output += buf.data();
  const int status = pclose(pipe);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

/// Runs the command line like run(), sends it SIGINT (Ctrl-C) after `seconds`, and returns its
/// exit code and output once it has ended.
inline CliRun run_interrupted(const std::string& args, double seconds) {
  CliRun r;
  int out[2];
  if (pipe(out) != 0) return r;
  const pid_t child = fork();
  if (child < 0) return r;
  if (child == 0) {
    dup2(out[1], 1), dup2(out[1], 2);
    close(out[0]), close(out[1]);
    const std::string cmd = "exec " + std::string(LINKDYN_CLI) + " " + args;
    execl("/bin/sh", "sh", "-c", cmd.c_str(), nullptr);
    _exit(127);
  }
  close(out[1]);
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  kill(child, SIGINT);
  std::array<char, 4096> buf{};
  for (ssize_t n; (n = read(out[0], buf.data(), buf.size())) > 0;) r.output.append(buf.data(), static_cast<size_t>(n));
  close(out[0]);
  int status = 0;
  waitpid(child, &status, 0);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

/// Writes `text` to a file in the test's temporary folder; its path.
inline std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

}  // namespace linkdyn::test
