// Inline SVG plots for the HTML reports: line and step series, point markers that link to files,
// linear or log axes with round ticks. Long series are thinned first (downsample.hpp), so a page
// stays small and readable at a million samples.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace tdisc::report {

struct Series {
  Series() = default;
  explicit Series(std::string series_name) : name(std::move(series_name)) {}
  std::string name;
  std::vector<double> x, y;     // same length; x ascending
  bool step = false;            // hold each value until the next x (ranks), else straight lines
  std::string colour;           // CSS colour; empty: from the palette
};

struct Marker {
  double x = 0, y = 0;
  std::string label;            // tooltip (SVG <title>)
  std::string href;             // link target; empty: none
};

struct PlotSpec {
  PlotSpec(std::string plot_id, std::string plot_title, std::string x, std::string y)
      : id(std::move(plot_id)), title(std::move(plot_title)), x_label(std::move(x)), y_label(std::move(y)) {}
  std::string id;               // element id (tests look for it)
  std::string title, x_label, y_label;
  std::vector<Series> series;
  std::vector<Marker> markers;
  bool log_y = false;
  bool x_from_zero = true;      // time axes start at the run's start, not at the first sample
  bool integer_y = false;       // ticks on whole numbers only (ranks)
  int width = 900, height = 260;
};

// One <figure> holding an <svg>; "no data" text when every series is empty.
std::string svg_plot(const PlotSpec& spec);

}  // namespace tdisc::report
