// File helpers shared by every reader and writer: whole-file reads with clear errors, and writes
// that never leave a half-written file (temporary name, then rename).
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "base/limits.hpp"

namespace tdisc {

// Reads the whole file, at most input_ceiling(kind) bytes (a longer file, or a device that never
// ends, is refused after that many); throws IoError("FILE: cannot read …") or InputError. Run files
// are opened without following a symbolic link: a link in a run directory is refused. A scheme file
// that is gzip (1f 8b) is inflated (at most kMaxInflatedBytes), so every reader takes FILE.gz.
std::string read_text_file(const std::string& path, InputKind kind = InputKind::scheme_file);
// A descriptor for appending to PATH (created 0644 when missing) that never follows a symbolic
// link: a link is refused with InputError, so a log cannot be redirected into someone else's file.
int open_append_nofollow(const std::string& path);
// Writes all of text to fd (retrying short writes); false when the system refused.
bool write_all(int fd, std::string_view text);
// Writes to PATH.tmp-XXXX in the same folder, flushes, then renames over PATH.
void write_file_atomic(const std::string& path, std::string_view content);
// 1-based line number of byte offset pos in text.
int line_of_offset(std::string_view text, size_t pos);
// Line of the index-th element of the top-level JSON array under "key" (0 when not found).
// Used to point error messages at the term that is wrong.
int json_array_element_line(std::string_view text, std::string_view key, size_t index);
// The lines of all elements of that array, in one pass (element r at [r]).
std::vector<int> json_array_element_lines(std::string_view text, std::string_view key);

}  // namespace tdisc
