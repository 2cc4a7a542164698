// Helpers of the format tests: fixture loading, file copies with a change, directory listings.
#pragma once
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "decomposition/formats/formats.hpp"
#include "decomposition/formats/imported.hpp"
#include "tests/support.hpp"

namespace tdisc::test {

inline std::string slurp_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

inline std::vector<std::string> listing(const std::string& dir) {
  std::vector<std::string> names;
  for (auto& e : std::filesystem::directory_iterator(dir)) names.push_back(e.path().filename().string());
  return names;
}

// Copy of fixture `relative` into dir under `name`, with `from` replaced by `to` (first occurrence);
// REQUIREs that `from` occurs. Returns the copy's path.
inline std::string broken_copy(const std::string& relative, const std::string& dir, const std::string& name,
                               const std::string& from, const std::string& to) {
  std::string text = slurp_file(fixture(relative));
  size_t at = text.find(from);
  if (at == std::string::npos) throw std::runtime_error("broken_copy: '" + from + "' not in " + relative);
  text.replace(at, from.size(), to);
  std::string path = dir + "/" + name;
  write_file(path, text);
  return path;
}

inline Scheme load(const std::string& format, const std::string& relative, const std::string& key = "") {
  ImportOptions opt;
  opt.key = key;
  return import_scheme(format, fixture(relative), opt);
}

// Line (1-based) of the first occurrence of `needle` in the file.
inline int line_of(const std::string& path, const std::string& needle) {
  std::string text = slurp_file(path);
  size_t at = text.find(needle);
  if (at == std::string::npos) return 0;
  int line = 1;
  for (size_t k = 0; k < at; ++k) line += text[k] == '\n';
  return line;
}

// The located message ("FILE:LINE: what") of the InputError that f throws; "" when it throws none.
template <class F>
std::string refusal(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.located();
  }
  return "";
}

}  // namespace tdisc::test
