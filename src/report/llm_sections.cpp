// The LLM part of a run page: a timeline of the calls (one bar per call from request to answer,
// coloured by outcome, packed into as many rows as calls overlapped), tokens and cost over time,
// the program database as a MAP-Elites grid per island (AlphaEvolve's cells: engine × lattice), and
// the best recipes in full.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "src/report/html.hpp"
#include "src/report/pages.hpp"
#include "src/report/plot.hpp"

namespace tdisc::report {

using nlohmann::json;

namespace {

std::string outcome_colour(const std::string& outcome) {
  static const std::map<std::string, std::string> colours = {
      {"accepted", "#2b8a3e"}, {"invalid_json", "#e67700"}, {"schema", "#7048e8"}, {"http", "#c92a2a"},
      {"timeout", "#862e9c"},  {"connection", "#868e96"},   {"quota", "#212529"},  {"bad_response", "#a61e4d"}};
  auto it = colours.find(outcome);
  return it == colours.end() ? "#495057" : it->second;
}

struct Bar {
  double from, to;
  std::string outcome, label;
};

std::vector<Bar> call_bars(const RunData& r) {
  std::vector<Bar> bars;
  for (const auto& c : r.llm_calls) {
    double to = c.value("finished_at", 0.0), from = c.value("sent_at", to - c.value("seconds", 0.0));
    std::string outcome = c.value("outcome", "?");
    bars.push_back({from, to, outcome,
                    "call " + std::to_string(c.value("call", -1)) + " (" + c.value("model", "") + "): " + outcome + ", " +
                        number(c.value("seconds", 0.0), 3) + " s, " + std::to_string(c.value("attempts", 0)) + " attempt(s)"});
  }
  std::sort(bars.begin(), bars.end(), [](const Bar& a, const Bar& b) { return a.from < b.from; });
  return bars;
}

// Interval packing: each bar goes to the first row free at its start.
std::string timeline(const RunData& r) {
  std::vector<Bar> bars = call_bars(r);
  std::string head = "<figure id=\"llm-timeline\"><figcaption>Calls over time (request → answer)</figcaption>";
  if (bars.empty()) return head + "<p class=\"muted no-data\">no calls</p></figure>\n";
  std::vector<double> row_end;
  std::vector<int> row_of;
  double t_max = 0;
  for (const auto& b : bars) {
    size_t row = 0;
    while (row < row_end.size() && row_end[row] > b.from) ++row;
    if (row == row_end.size()) row_end.push_back(0);
    row_end[row] = b.to;
    row_of.push_back(static_cast<int>(row));
    t_max = std::max(t_max, b.to);
  }
  const double w = 900, left = 64, right = 16, row_h = 14, height = 40 + row_h * static_cast<double>(row_end.size());
  auto px = [&](double t) { return left + t / std::max(t_max, 1e-9) * (w - left - right); };
  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 900 " + number(height, 6) + "\" width=\"900\" height=\"" +
                    number(height, 6) + "\"><g class=\"axis\"><text x=\"4\" y=\"14\">rows: calls in flight</text>";
  for (int k = 0; k <= 5; ++k)
    svg += "<text x=\"" + number(px(t_max * k / 5), 5) + "\" y=\"" + number(height - 4, 5) + "\" text-anchor=\"middle\">" +
           number(t_max * k / 5, 3) + " s</text>";
  svg += "</g>";
  for (size_t i = 0; i < bars.size(); ++i) {
    double x0 = px(bars[i].from), x1 = std::max(px(bars[i].to), x0 + 1.5);
    svg += "<rect class=\"call\" data-outcome=\"" + escape(bars[i].outcome) + "\" x=\"" + number(x0, 6) + "\" y=\"" +
           number(22 + row_h * row_of[i], 6) + "\" width=\"" + number(x1 - x0, 6) + "\" height=\"" + number(row_h - 3, 4) +
           "\" fill=\"" + outcome_colour(bars[i].outcome) + "\"><title>" + escape(bars[i].label) + "</title></rect>";
  }
  return head + svg + "</svg></figure>\n";
}

std::string outcome_table(const RunData& r) {
  std::map<std::string, long> counts;
  long tokens = 0;
  double cost = 0;
  for (const auto& c : r.llm_calls) {
    ++counts[c.value("outcome", "?")];
    tokens += c.value("prompt_tokens", 0L) + c.value("completion_tokens", 0L);
    cost += c.value("cost_usd", 0.0);
  }
  std::vector<std::vector<std::string>> rows;
  for (const auto& [outcome, n] : counts)
    rows.push_back({"<span style=\"color:" + outcome_colour(outcome) + "\">■</span> " + escape(outcome), std::to_string(n)});
  rows.push_back({"<b>calls</b>", "<span id=\"llm-calls\">" + std::to_string(r.llm_calls.size()) + "</span>"});
  rows.push_back({"tokens", "<span id=\"llm-tokens\">" + std::to_string(tokens) + "</span>"});
  rows.push_back({"cost (USD)", "<span id=\"llm-cost\">" + number(cost, 4) + "</span>"});
  return table("llm-outcomes", {"outcome", "calls"}, rows);
}

std::string spending_plot(const RunData& r) {
  PlotSpec p{"plot-llm-tokens", "Tokens spent", "elapsed (s)", "tokens"};
  Series tokens{"tokens (cumulative)"};
  std::vector<std::pair<double, long>> points;
  for (const auto& c : r.llm_calls)
    points.emplace_back(c.value("finished_at", 0.0), c.value("prompt_tokens", 0L) + c.value("completion_tokens", 0L));
  std::sort(points.begin(), points.end());
  long sum = 0;
  for (const auto& [t, n] : points) sum += n, tokens.x.push_back(t), tokens.y.push_back(static_cast<double>(sum));
  tokens.step = true;
  p.series.push_back(tokens);
  return svg_plot(p);
}

// A member of j by reference (never a copy: the pages keep pointers into it), or an empty array.
const json& member(const json& j, const char* key) {
  static const json none = json::array();
  return j.is_object() && j.contains(key) ? j[key] : none;
}

const json& database_of(const RunData& r) {
  static const json none;
  if (!r.checkpoint.is_object() || !r.checkpoint.contains("state")) return none;
  const json& s = r.checkpoint["state"];
  if (s.contains("database")) return s["database"];
  if (s.contains("llm") && s["llm"].contains("database")) return s["llm"]["database"];
  return none;
}

// One grid per island: engine rows × lattice (or ring) columns, each cell its elite's fitness.
std::string elite_grids(const json& db) {
  std::map<int, const json*> by_id;
  for (const auto& p : member(db, "programs")) by_id[p.value("id", -1)] = &p;
  const json& cells = member(db, "cells");
  std::string out;
  for (size_t island = 0; island < cells.size(); ++island) {
    std::set<std::string> engines, columns;
    std::map<std::pair<std::string, std::string>, const json*> elite;
    for (auto it = cells[island].begin(); it != cells[island].end(); ++it) {
      std::string cell = it.key();
      size_t slash = cell.find('/');
      std::string e = cell.substr(0, slash), c = slash == std::string::npos ? "" : cell.substr(slash + 1);
      engines.insert(e), columns.insert(c);
      if (auto p = by_id.find(it.value().get<int>()); p != by_id.end()) elite[{e, c}] = p->second;
    }
    std::vector<std::string> header = {"engine \\ cell"};
    for (const auto& c : columns) header.push_back(escape(c));
    std::vector<std::vector<std::string>> rows;
    for (const auto& e : engines) {
      std::vector<std::string> row = {escape(e)};
      for (const auto& c : columns) {
        auto it = elite.find({e, c});
        if (it == elite.end()) row.push_back("<span class=\"muted\">·</span>");
        else {
          const json& score = it->second->value("score", json::object());
          row.push_back("<span title=\"" + escape(score.value("note", "")) + "\">#" + std::to_string(it->second->value("id", -1)) +
                        " " + number(score.value("fitness", 0.0), 4) + "</span>");
        }
      }
      rows.push_back(row);
    }
    out += "<h3>Island " + std::to_string(island) + "</h3>" + table("", header, rows, "grid elite-grid");
  }
  return out.empty() ? "<p class=\"muted\">no program database in checkpoint.json</p>\n" : out;
}

std::string best_recipes(const json& db, size_t k) {
  std::vector<const json*> programs;
  for (const auto& p : member(db, "programs")) programs.push_back(&p);
  std::stable_sort(programs.begin(), programs.end(), [](const json* a, const json* b) {
    return a->value("score", json::object()).value("fitness", -1e18) > b->value("score", json::object()).value("fitness", -1e18);
  });
  std::string out;
  for (size_t i = 0; i < programs.size() && i < k; ++i) {
    const json& p = *programs[i];
    out += "<p><b>#" + std::to_string(p.value("id", -1)) + "</b> (" + escape(p.value("origin", "")) + ", " + escape(p.value("cell", "")) +
           "): " + escape(p.value("score", json::object()).value("note", "")) + "</p><pre class=\"recipe\">" +
           escape(p.value("body", json::object()).dump(2)) + "</pre>\n";
  }
  return out;
}

}  // namespace

std::string llm_sections(const RunData& r) {
  const json& db = database_of(r);
  if (r.llm_calls.empty() && db.is_null()) return "";
  std::string calls = timeline(r) + outcome_table(r) + spending_plot(r);
  std::string database = db.is_null() ? "<p class=\"muted\">no program database in checkpoint.json</p>\n"
                                      : elite_grids(db) + "<h3>Best recipes</h3>\n" + best_recipes(db, 5);
  return section("llm-calls", "LLM calls", calls) + section("llm-database", "Program database (MAP-Elites per island)", database);
}

}  // namespace tdisc::report
