// Whole-file reads, atomic writes, and line lookup for error messages.
#include "decomposition/io.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>

#include "decomposition/error.hpp"

namespace tdisc {

std::string read_text_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IoError(path, 0, std::string("cannot read: ") + std::strerror(errno));
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_file_atomic(const std::string& path, std::string_view content) {
  std::random_device rd;
  std::string tmp = path + ".tmp-" + std::to_string(rd() % 1000000);
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) throw IoError(path, 0, std::string("cannot write: ") + std::strerror(errno));
  size_t done = 0;
  while (done < content.size()) {
    ssize_t k = ::write(fd, content.data() + done, content.size() - done);
    if (k < 0) {
      int e = errno;
      ::close(fd);
      ::unlink(tmp.c_str());
      throw IoError(path, 0, std::string("cannot write: ") + std::strerror(e));
    }
    done += static_cast<size_t>(k);
  }
  ::fsync(fd);
  ::close(fd);
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    int e = errno;
    ::unlink(tmp.c_str());
    throw IoError(path, 0, std::string("cannot rename into place: ") + std::strerror(e));
  }
}

int line_of_offset(std::string_view text, size_t pos) {
  if (pos > text.size()) pos = text.size();
  int line = 1;
  for (size_t k = 0; k < pos; ++k)
    if (text[k] == '\n') ++line;
  return line;
}

std::vector<int> json_array_element_lines(std::string_view text, std::string_view key) {
  std::vector<int> lines;
  std::string quoted = "\"" + std::string(key) + "\"";
  size_t at = text.find(quoted);
  if (at == std::string_view::npos) return lines;
  size_t open = text.find('[', at + quoted.size());
  if (open == std::string_view::npos) return lines;
  int depth = 0, line = line_of_offset(text, open);
  bool in_string = false, expecting = true;
  for (size_t k = open + 1; k < text.size(); ++k) {  // one pass, counting lines as it goes
    char c = text[k];
    if (c == '\n') ++line;
    if (in_string) {
      if (c == '\\') ++k;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
    if (depth == 0 && expecting) {
      if (c == ']') return lines;
      lines.push_back(line);
      expecting = false;
    }
    if (c == '"') in_string = true;
    else if (c == '[' || c == '{') ++depth;
    else if (c == ']' || c == '}') {
      if (depth == 0) return lines;
      --depth;
    } else if (c == ',' && depth == 0) {
      expecting = true;
    }
  }
  return lines;
}

int json_array_element_line(std::string_view text, std::string_view key, size_t index) {
  std::vector<int> lines = json_array_element_lines(text, key);
  return index < lines.size() ? lines[index] : 0;
}

}  // namespace tdisc
