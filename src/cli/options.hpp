// The command line of every subcommand over its parameter table (base/params/table.hpp):
// Boost.Program_options splits the arguments, the table converts, checks and records each value.
#pragma once
#include <string>
#include <vector>

#include "base/params/help.hpp"
#include "base/params/settings.hpp"
#include "base/params/table.hpp"

namespace tdisc::cli {

using params::Settings;
using params::Table;

// Parses args (without the program and subcommand names): for each parameter the flag, else its
// environment mirror, else its default. Throws UsageError on unknown flags, missing values, a flag
// given twice, or a value that does not parse or lies out of range (never clamped).
// --ring: a ring name in any case (GF2, gf2, F2, MOD2 …); with_auto adds "auto".
params::Param ring_option(const std::string& help, bool with_auto);

Settings parse_options(const Table& table, const std::vector<std::string>& args);

// "a,b,,c" → {"a", "b", "c"}: the comma lists of LIST flags (--sizes, --shapes, --dtype …).
std::vector<std::string> split_list(const std::string& text, char sep = ',');
// {"a", "b", "c"} → "a b c": lists of names in help texts (the formats of import and export).
std::string join_list(const std::vector<std::string>& items, char sep = ' ');

}  // namespace tdisc::cli
