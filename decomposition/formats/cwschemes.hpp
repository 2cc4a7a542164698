// A checkout of AntoineTilloy/explicit-matmul-schemes (the Python package cwschemes): which files
// are its catalogue entries, and the size an entry names, so that import-sources can walk a checkout
// without parsing its other JSON files (checks, comparisons) as schemes. The reader itself is
// read_cwschemes (readers.hpp, format name "cwschemes").
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace tdisc::fmt {

// True when dir holds src/cwschemes/data/index.json and a schemes/ folder.
bool is_cwschemes_checkout(const std::filesystem::path& dir);
// True when path is DIR/schemes/<name>.json of such a checkout DIR.
bool is_cwschemes_entry(const std::filesystem::path& path);
// The entries DIR/schemes/*.json of a checkout, sorted.
std::vector<std::filesystem::path> cwschemes_entries(const std::filesystem::path& dir);
// The square size n an entry names ("n": "14"); throws InputError when the entry is not one.
long cwschemes_entry_size(const std::string& path);

}  // namespace tdisc::fmt
