// Whole-file reads, atomic writes, and line lookup for error messages.
#include "base/io.hpp"

#include "base/gzip.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>

#include "base/error.hpp"

namespace tdisc {

namespace {

const char* kind_name(InputKind kind) {
  switch (kind) {
    case InputKind::scheme_file: return "a scheme file";
    case InputKind::run_file: return "a run file";
    case InputKind::gzip_member: return "a gzip file";
    case InputKind::params: return "a --params file";
    case InputKind::server_reply: return "a server's reply";
    case InputKind::results: return "a results file";
  }
  return "an input";
}

[[noreturn]] void too_large(const std::string& path, InputKind kind, size_t ceiling) {
  throw InputError(path, 0, "more than " + std::to_string(ceiling >> 20) + " MiB, the ceiling for " + kind_name(kind) +
                                "; refused (TDISC_MAX_INPUT_MB=N raises it, docs/reliability.md)");
}

}  // namespace

std::string read_text_file(const std::string& path, InputKind kind) {
  const size_t ceiling = input_ceiling(kind);
  const int flags = O_RDONLY | O_CLOEXEC | (kind == InputKind::run_file ? O_NOFOLLOW : 0);
  const int fd = ::open(path.c_str(), flags);
  if (fd < 0 && errno == ELOOP && kind == InputKind::run_file)
    throw InputError(path, 0, "is a symbolic link; the files of a run directory must be its own (refused)");
  if (fd < 0) throw IoError(path, 0, std::string("cannot read: ") + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && static_cast<unsigned long long>(st.st_size) > ceiling) {
    ::close(fd);
    too_large(path, kind, ceiling);
  }
  std::string out;
  if (S_ISREG(st.st_mode)) out.reserve(static_cast<size_t>(st.st_size));
  char buf[1 << 16];
  for (;;) {  // a device or pipe has no size: read until the end or past the ceiling
    const ssize_t k = ::read(fd, buf, sizeof buf);
    if (k < 0 && errno == EINTR) continue;
    if (k < 0) {
      const int e = errno;
      ::close(fd);
      throw IoError(path, 0, std::string("cannot read: ") + std::strerror(e));
    }
    if (k == 0) break;
    out.append(buf, static_cast<size_t>(k));
    if (out.size() > ceiling) {
      ::close(fd);
      too_large(path, kind, ceiling);
    }
  }
  ::close(fd);
  if (kind == InputKind::scheme_file && is_gzip(out)) return gunzip(path, out);
  return out;
}

int open_append_nofollow(const std::string& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0 && errno == ELOOP)
    throw InputError(path, 0, "is a symbolic link; the files of a run directory must be its own (refused)");
  if (fd < 0) throw IoError(path, 0, std::string("cannot open for appending: ") + std::strerror(errno));
  return fd;
}

bool write_all(int fd, std::string_view text) {
  while (!text.empty()) {
    const ssize_t k = ::write(fd, text.data(), text.size());
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return false;
    text.remove_prefix(static_cast<size_t>(k));
  }
  return true;
}

// The temporary is created exclusively and never through a link; the rename replaces a link at PATH
// instead of writing through it.
void write_file_atomic(const std::string& path, std::string_view content) {
  std::random_device rd;
  std::string tmp;
  int fd = -1;
  for (int attempt = 0; attempt < 8 && fd < 0; ++attempt) {  // a new name, never a link or a file planted there
    tmp = path + ".tmp-" + std::to_string(rd() % 1000000);
    fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0 && errno != EEXIST) break;
  }
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
