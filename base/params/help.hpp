// The texts a parameter table generates: a command's --help, an engine's --help-params, and the
// Markdown of docs/parameters.md (one section per table).
#pragma once
#include <string>

#include "base/params/table.hpp"

namespace tdisc::params {

// "usage: …", the summary, then one line per parameter: flag, help, [default], range, [env].
std::string help_text(const Table& t);
// An engine's parameters as JSON keys: name, default, range or choices, help.
std::string params_text(const Table& t);
// One Markdown section: a heading, the summary, and a table of every parameter.
std::string markdown(const Table& t, bool command_line);

}  // namespace tdisc::params
