// What an importer learns beyond the scheme: the source line of every term (so a failing Brent
// equation can be pointed at a line of the file), the ring the source declares, and quirks met.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "decomposition/formats/formats.hpp"

namespace tdisc {

struct ImportedScheme {
  Scheme scheme;
  std::vector<int> term_lines;      // 1-based source line of each term; 0 where there is none
  std::optional<Ring> declared;     // the ring the source states (a "mod2" file name → GF2)
  std::vector<std::string> notes;   // quirks worth telling the user ("holds 86 terms, not 85")
  std::string path;                 // the file, for messages

  int line_of_term(int r) const {
    return r >= 0 && r < static_cast<int>(term_lines.size()) ? term_lines[static_cast<size_t>(r)] : 0;
  }
};

// import_scheme with the extra knowledge above.
ImportedScheme import_located(const std::string& format, const std::string& path, const ImportOptions& opt = {});
// The same from bytes already in memory (`path` labels messages and is matched for names like
// "444-47-mod2.exp" that carry dimensions, rank or ring).
ImportedScheme import_from_bytes(const std::string& format, const std::string& path, const std::string& bytes,
                                 const ImportOptions& opt = {});

}  // namespace tdisc
