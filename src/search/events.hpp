// The vocabulary of events.jsonl, written down once: every event a search writes (name, fields, who
// writes it, what it means) and how `tdisc report` reads it. Writers use the names below, the
// report (src/report/run_data.cpp) decides by this table what to keep, tests/report checks that
// every event a search emits is listed here with its fields, and docs/report.md's table of events
// is markdown() below (tests/report/test_events.cpp checks all three).
//
// Header only (constexpr): src/report reads files, and links no search code.
#pragma once
#include <string>
#include <string_view>

namespace tdisc::search::events {

// How the report reads an event: a point of its time series, kept whole for a section of the page,
// or only counted (the table of event counts).
enum class Use { Series, Kept, Counted };

struct Kind {
  std::string_view name;
  // The fields every writer gives besides "event", space-separated; "NAME?" when some writers or
  // some cases leave it out. Decorators may add "lane" (flip lanes), "meta_round" (meta walk) and
  // "mpi_rank" (an event relayed from another MPI rank) to any event.
  std::string_view fields;
  std::string_view writer;
  std::string_view meaning;
  Use use = Use::Counted;
};

inline constexpr std::string_view kTags = "lane meta_round mpi_rank";

// The names, for writers and readers alike.
inline constexpr const char* kStarted = "started";
inline constexpr const char* kResumed = "resumed";
inline constexpr const char* kProgress = "progress";
inline constexpr const char* kImproved = "improved";
inline constexpr const char* kRejected = "rejected";
inline constexpr const char* kCheckpoint = "checkpoint";
inline constexpr const char* kFinished = "finished";
inline constexpr const char* kStaleLock = "stale_lock";
inline constexpr const char* kCatalogued = "catalogued";
inline constexpr const char* kAlreadyCatalogued = "already_catalogued";
inline constexpr const char* kCatalogueHasAsGood = "catalogue_has_as_good";
inline constexpr const char* kLanes = "lanes";
inline constexpr const char* kPortfolioMove = "portfolio_move";
inline constexpr const char* kWalkersRestored = "walkers_restored";
inline constexpr const char* kModularBest = "modular_best";
inline constexpr const char* kLiftFailed = "lift_failed";
inline constexpr const char* kMetaStart = "meta_start";
inline constexpr const char* kNumericStart = "numeric_start";
inline constexpr const char* kNumericRestart = "numeric_restart";
inline constexpr const char* kNumericalSolution = "numerical_solution";
inline constexpr const char* kExactFound = "exact_found";
inline constexpr const char* kNumericBatch = "numeric_batch";
inline constexpr const char* kNumericBatchEnd = "numeric_batch_end";
inline constexpr const char* kLlmSchedule = "llm_schedule";
inline constexpr const char* kLlmRequest = "llm_request";
inline constexpr const char* kLlmCall = "llm_call";
inline constexpr const char* kLlmProgram = "llm_program";
inline constexpr const char* kLlmFallbackYielded = "llm_fallback_yielded";
inline constexpr const char* kLlmSummary = "llm_summary";
inline constexpr const char* kLlmError = "llm_error";
inline constexpr const char* kMpi = "mpi";
inline constexpr const char* kRankStarted = "rank_started";
inline constexpr const char* kRankFailed = "rank_failed";
inline constexpr const char* kRankLost = "rank_lost";
inline constexpr const char* kRanksUnfinished = "ranks_unfinished";
inline constexpr const char* kMpiStats = "mpi_stats";

inline constexpr Kind kVocabulary[] = {
    {kStarted, "engine target threads seed budget_seconds", "orchestrator", "a new run began", Use::Kept},
    {kResumed, "engine target threads seed budget_seconds", "orchestrator", "a session of a resumed run began"},
    {kProgress, "elapsed rate? best? rank? restarts? lift_attempts? lifts? residual? exact_fraction?", "orchestrator",
     "a sample of the counters (every 2 s): the report's time series", Use::Series},
    {kImproved, "rank ring method file elapsed", "orchestrator", "a verified scheme of a new lowest rank was written", Use::Kept},
    {kRejected, "rank method why_not", "orchestrator", "an engine offered a scheme the verifier refused (a bug)"},
    {kCheckpoint, "elapsed", "orchestrator", "checkpoint.json was written"},
    {kFinished, "reached best_rank interrupted elapsed counters", "orchestrator", "the session ended", Use::Kept},
    {kStaleLock, "note", "orchestrator", "the lock of a dead process was taken over"},
    {kCatalogued, "file rank", "orchestrator (--catalog)", "a new best was filed in the catalogue"},
    {kAlreadyCatalogued, "file rank", "orchestrator (--catalog)", "the catalogue holds this scheme already"},
    {kCatalogueHasAsGood, "file rank", "orchestrator (--catalog)", "the catalogue holds one as good"},
    {kLanes, "lanes portfolio?", "flip engine", "the lanes (walk ring, symmetry, threads) that run side by side"},
    {kPortfolioMove, "from to from_lane to_lane threads why seconds", "flip engine (portfolio)",
     "a thread moved from one lane to another, toward the lane that improves"},
    {kWalkersRestored, "walkers pool_rank", "flip engine", "walkers read back from the checkpoint"},
    {kModularBest, "rank ring", "flip engine", "a new best of a modular walk, before its Hensel lift"},
    {kLiftFailed, "rank steps why_not", "flip engine", "a Hensel lift did not give a scheme over the target ring"},
    {kMetaStart, "round move start rank seed", "meta engine", "a round of the meta walk and its start"},
    {kNumericStart, "method field lattice first_restart restart_stride device_index threads seed ansatz?", "numeric engine",
     "the numeric engine's settings at its start"},
    {kNumericRestart, "restart stage residual exact_fraction steps how rounded_residual?", "numeric engine", "a restart ended"},
    {kNumericalSolution, "restart residual ansatz exact theta", "numeric engine",
     "an approximate solution inside an ansatz (the parameters theta)"},
    {kExactFound, "sha256 rank restart native?", "numeric engine", "an exact scheme (keep_going: each one, by hash)"},
    {kNumericBatch, "elapsed device slots parked waiting_slots best_residual restarts_started near_misses completed",
     "numeric engine (GPU)", "the batch's totals, every 10 s"},
    {kNumericBatchEnd, "elapsed device slots parked waiting_slots best_residual restarts_started near_misses completed",
     "numeric engine (GPU)", "the batch's totals at its end"},
    {kLlmSchedule, "schedule concurrency eval_seconds max_seeds", "llm engine", "the evaluation schedule"},
    {kLlmRequest, "call model kind parent at in_flight", "llm engine", "a request was sent"},
    {kLlmCall, "call model kind parent status http_status attempts seconds sent_at finished_at prompt_tokens completion_tokens cost_usd",
     "llm engine", "a request ended: the page's timeline and costs", Use::Kept},
    {kLlmProgram, "id cell origin island call fitness note at", "llm engine", "a recipe was scored and stored", Use::Kept},
    {kLlmFallbackYielded, "parent at", "llm engine", "a fallback evaluation gave way to an arriving proposal"},
    {kLlmSummary, "calls evaluations prompt_tokens completion_tokens cost_usd programs migrations stopped_calling schedule",
     "llm engine", "the session's totals"},
    {kLlmError, "message", "llm engine", "the engine cannot run"},
    {kMpi, "ranks exchange_seconds timeout_seconds resumed_from_ranks pid device_index", "MPI rank 0", "the MPI job's shape"},
    {kRankStarted, "seed pid device_index resumed", "MPI rank > 0", "a rank started its engine"},
    {kRankFailed, "what", "MPI rank > 0", "a rank's engine threw"},
    {kRankLost, "lost_rank silent_seconds", "MPI rank 0", "a rank fell silent: the job ends"},
    {kRanksUnfinished, "ranks", "MPI rank 0", "ranks that had not finished when rank 0 ended"},
    {kMpiStats, "islands messages_sent? messages_received? bytes_sent? bytes_received? mpi_seconds? reports? relay_seconds? checkpoints? checkpoint_seconds?",
     "MPI ranks", "message and island statistics at the end"},
};

inline constexpr const Kind* find(std::string_view name) {
  for (const Kind& k : kVocabulary)
    if (k.name == name) return &k;
  return nullptr;
}

// docs/report.md's table of events: one row per event, in the order above.
inline std::string markdown() {
  std::string out = "| event | fields | written by | meaning | report |\n|---|---|---|---|---|\n";
  for (const Kind& k : kVocabulary) {
    const char* use = k.use == Use::Series ? "time series" : k.use == Use::Kept ? "kept" : "counted";
    out += "| `" + std::string(k.name) + "` | " + std::string(k.fields) + " | " + std::string(k.writer) + " | " +
           std::string(k.meaning) + " | " + use + " |\n";
  }
  return out;
}

}  // namespace tdisc::search::events
