// fuzz_replay FORMAT PATH…: runs every file (or every file of every folder) through the fuzz
// contract of one reader without libFuzzer, so any compiler can replay the committed corpus.
// fuzz_replay_app (TDISC_FUZZ_APP) does the same for the run-directory and LLM-reply targets.
// Prints how many inputs were run; a finding aborts (non-zero exit under CTest).
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "tests/fuzz/targets/fuzz_one.hpp"

namespace fs = std::filesystem;

namespace {

std::vector<fs::path> inputs_under(const fs::path& p) {
  std::vector<fs::path> out;
  if (fs::is_directory(p)) {
    for (auto& e : fs::recursive_directory_iterator(p))
      if (e.is_regular_file()) out.push_back(e.path());
  } else {
    out.push_back(p);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: fuzz_replay FORMAT FILE_OR_DIR…\n");
    return 1;
  }
  const std::string format = argv[1];
  long count = 0;
  for (int a = 2; a < argc; ++a) {
    if (!fs::exists(argv[a])) {
      std::fprintf(stderr, "fuzz_replay: %s does not exist\n", argv[a]);
      return 1;
    }
    for (const fs::path& f : inputs_under(argv[a])) {
      std::ifstream in(f, std::ios::binary);
      std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
#ifdef TDISC_FUZZ_APP
      tdisc::fuzz::run_app_one(format, reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
#else
      tdisc::fuzz::run_one(format, reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
#endif
      ++count;
    }
  }
  std::printf("fuzz_replay %s: %ld inputs, no finding\n", format.c_str(), count);
  return count > 0 ? 0 : 1;
}
