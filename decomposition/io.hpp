// File helpers shared by every reader and writer: whole-file reads with clear errors, and writes
// that never leave a half-written file (temporary name, then rename).
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace tdisc {

// Reads the whole file; throws InputError("FILE: cannot read …").
std::string read_text_file(const std::string& path);
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
