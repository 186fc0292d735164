// Replays inputs through a fuzz target without libFuzzer (any compiler, the sanitizer build
// too): every file named, or every file in a folder named. The regression corpus of `make
// test`: each file once found a defect, or is an example the readers must keep taking.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

int main(int argc, char** argv) {
  int files = 0;
  for (int a = 1; a < argc; ++a) {
    std::vector<std::filesystem::path> paths;
    if (std::filesystem::is_directory(argv[a])) {
      for (const auto& entry : std::filesystem::directory_iterator(argv[a]))
        if (entry.is_regular_file()) paths.push_back(entry.path());
    } else {
      paths.emplace_back(argv[a]);
    }
    for (const auto& path : paths) {
      std::ifstream in(path, std::ios::binary);
      const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      std::fprintf(stderr, "%s\n", path.c_str());
      LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
      ++files;
    }
  }
  std::printf("replayed %d input(s)\n", files);
  return files > 0 ? 0 : 1;
}
