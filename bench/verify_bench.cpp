// Times the exact Brent-equation verifier in-process: read a native scheme once, then verify it
// over its ring REPEAT times and print one JSON object (min, median, max seconds per verification).
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "decomposition/native.hpp"
#include "verifier/verify.hpp"

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::cerr << "usage: bench_verify SCHEME.json [REPEAT]\n";
    return 1;
  }
  const int repeat = argc == 3 ? std::atoi(argv[2]) : 10;
  if (repeat < 1 || repeat > 10000) {
    std::cerr << "bench_verify: REPEAT must be in 1..10000\n";
    return 1;
  }
  try {
    auto t_read = std::chrono::steady_clock::now();
    tdisc::Scheme s = tdisc::read_native(argv[1]);
    double read_s = seconds_since(t_read);
    std::vector<double> times;
    bool all_valid = true;
    for (int k = 0; k < repeat; ++k) {
      auto t0 = std::chrono::steady_clock::now();
      tdisc::Verdict v = tdisc::verify(s, s.ring);
      times.push_back(seconds_since(t0));
      all_valid = all_valid && v.valid;
    }
    std::sort(times.begin(), times.end());
    nlohmann::json j = {{"file", argv[1]},
                        {"format", s.format.str()},
                        {"rank", s.rank()},
                        {"ring", std::string(tdisc::ring_name(s.ring))},
                        {"equations", static_cast<long>(s.format.a_size()) * s.format.b_size() * s.format.c_size()},
                        {"valid", all_valid},
                        {"repeat", repeat},
                        {"read_s", read_s},
                        {"verify_min_s", times.front()},
                        {"verify_median_s", times[times.size() / 2]},
                        {"verify_max_s", times.back()}};
    std::cout << j.dump() << "\n";
    return all_valid ? 0 : 2;
  } catch (const tdisc::InputError& e) {
    std::cerr << "bench_verify: " << e.located() << "\n";
    return 2;
  }
}
