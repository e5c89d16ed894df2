/* Runs a fuzz target over files, without libFuzzer: how CI replays the corpus with any compiler.
 * Usage: fuzz_x FILE_OR_FOLDER...   Prints "N passed, 0 failed"; a bad input crashes or aborts, which fails. */
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int main(int argc, char** argv)
{
  std::vector<std::filesystem::path> inputs;
  for (int i = 1; i < argc; i++) {
    if (argv[i][0] == '-') continue; // libFuzzer's options (-runs=0), so that both builds take the same command
    std::filesystem::path p(argv[i]);
    if (std::filesystem::is_directory(p)) {
      for (const auto& e : std::filesystem::directory_iterator(p))
        if (e.is_regular_file()) inputs.push_back(e.path());
    } else {
      inputs.push_back(p);
    }
  }
  for (const auto& p : inputs) {
    std::ifstream in(p, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  }
  std::printf("%zu passed, 0 failed\n", inputs.size());
  return inputs.empty() ? 1 : 0;
}
