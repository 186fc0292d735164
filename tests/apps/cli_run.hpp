#pragma once
// Running the linkdyn command line from a test: its exit code and output, and input files.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
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

/// Writes `text` to a file in the test's temporary folder; its path.
inline std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

}  // namespace linkdyn::test
