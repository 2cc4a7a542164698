// One fuzz input through one reader: import from bytes, and when that succeeds, verify the scheme
// and round-trip it through the native file. Shared by the libFuzzer targets and the plain replay.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace tdisc::fuzz {

// The importer formats fuzzed, one target each ("native" is the native reader).
const char* const kFormats[] = {"native", "exp", "maple", "fmm-mpl", "perminov-json",
                                "fast-matmul", "flip-cpd", "alphaevolve-ipynb", "alphatensor-npz"};

// Targets of the entry points that are not readers of a scheme format (issue 26): the hardened JSON
// entry point (a refusal is an InputError; an accepted value must dump and parse back to itself, and
// never be nested deeper than the limit) and the export escapers (each output is valid UTF-8 on one
// line, and the Python one leaves no unescaped quote), and the tdisc-ansatz reader (an accepted file
// reads back from its own text with the same shape).
const char* const kEntryPoints[] = {"json-input", "escape", "ansatz", "field-scheme"};

// Targets that read through the search, LLM and report code (tdisc_fuzz_app_one, fuzz_replay_app):
// a run directory as `--resume` and `tdisc report` read it (run_dir_one.cpp), and a server's reply
// body through the client, the JSON extraction, the proposal checks and the evaluator's exact check
// of a proposed scheme (llm_reply_one.cpp).
const char* const kAppEntryPoints[] = {"run-dir", "llm-reply"};

// Reports a finding on stderr and aborts (libFuzzer keeps the input as a crash).
[[noreturn]] void finding(const std::string& format, const std::string& what);

// Runs one input. A refusal (InputError) is the expected outcome of bad input; any other exception,
// a scheme that changes across the native round trip, or a sanitizer report is a finding: abort().
void run_one(const std::string& format, const uint8_t* data, size_t size);
// The same contract for kAppEntryPoints; an unknown name aborts.
void run_app_one(const std::string& format, const uint8_t* data, size_t size);
void run_dir_one(const uint8_t* data, size_t size);
void llm_reply_one(const uint8_t* data, size_t size);

}  // namespace tdisc::fuzz
