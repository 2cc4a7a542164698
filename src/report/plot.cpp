// SVG rendering of PlotSpec (see plot.hpp): a frame, round ticks (1-2-5 steps, or decades on a log
// axis), one polyline per series, markers with tooltips and links, and a legend.
#include "src/report/plot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "src/report/downsample.hpp"
#include "src/report/html.hpp"

namespace tdisc::report {

namespace {

const char* kPalette[] = {"#1f5fbf", "#d9480f", "#2b8a3e", "#7048e8", "#c2255c", "#0b7285", "#5c940d", "#e67700"};
constexpr double kLeft = 64, kRight = 16, kTop = 10, kBottom = 38;

struct Range {
  double lo = std::numeric_limits<double>::infinity(), hi = -std::numeric_limits<double>::infinity();
  void add(double v) {
    if (!std::isfinite(v)) return;
    lo = std::min(lo, v), hi = std::max(hi, v);
  }
  bool empty() const { return !(lo <= hi); }
  void widen() {
    if (empty()) lo = 0, hi = 1;
    if (hi - lo < 1e-12) lo -= 0.5, hi += 0.5;
  }
};

double nice_step(double span, int ticks) {
  double raw = span / std::max(1, ticks), mag = std::pow(10, std::floor(std::log10(raw))), f = raw / mag;
  return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * mag;
}

std::vector<double> ticks(const Range& r, bool integer) {
  double step = nice_step(r.hi - r.lo, 5);
  if (integer) step = std::max(1.0, std::round(step));
  std::vector<double> out;
  for (double t = std::ceil(r.lo / step) * step; t <= r.hi + step * 1e-9 && out.size() < 20; t += step) out.push_back(t);
  return out;
}

struct Frame {
  Range x, y;
  double w, h;
  bool log_y;
  double px(double v) const { return kLeft + (v - x.lo) / (x.hi - x.lo) * (w - kLeft - kRight); }
  double py(double v) const {
    double t = log_y ? std::log10(std::max(v, 1e-300)) : v;
    return h - kBottom - (t - y.lo) / (y.hi - y.lo) * (h - kTop - kBottom);
  }
};

std::string fmt(double v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

std::string axes(const Frame& f, const PlotSpec& s) {
  std::string out = "<g class=\"axis\">";
  out += "<rect x=\"" + fmt(kLeft) + "\" y=\"" + fmt(kTop) + "\" width=\"" + fmt(f.w - kLeft - kRight) + "\" height=\"" +
         fmt(f.h - kTop - kBottom) + "\" fill=\"none\" stroke=\"#c9d0d9\"/>";
  for (double t : ticks(f.x, false)) {
    double x = f.px(t);
    out += "<line x1=\"" + fmt(x) + "\" x2=\"" + fmt(x) + "\" y1=\"" + fmt(f.h - kBottom) + "\" y2=\"" + fmt(f.h - kBottom + 4) +
           "\" stroke=\"#8a94a3\"/><text x=\"" + fmt(x) + "\" y=\"" + fmt(f.h - kBottom + 16) + "\" text-anchor=\"middle\">" +
           escape(number(t)) + "</text>";
  }
  std::vector<double> y_ticks = ticks(f.y, s.integer_y || f.log_y);
  if (f.log_y && y_ticks.size() < 2) y_ticks = {f.y.lo, f.y.hi};  // less than a decade: label the ends
  for (double t : y_ticks) {
    double y = f.h - kBottom - (t - f.y.lo) / (f.y.hi - f.y.lo) * (f.h - kTop - kBottom);
    std::string label = f.log_y ? number(std::pow(10.0, t), 2) : number(t);
    out += "<line x1=\"" + fmt(kLeft) + "\" x2=\"" + fmt(f.w - kRight) + "\" y1=\"" + fmt(y) + "\" y2=\"" + fmt(y) +
           "\" stroke=\"#eef1f4\"/><text x=\"" + fmt(kLeft - 6) + "\" y=\"" + fmt(y + 4) + "\" text-anchor=\"end\">" +
           escape(label) + "</text>";
  }
  out += "<text x=\"" + fmt((kLeft + f.w - kRight) / 2) + "\" y=\"" + fmt(f.h - 4) + "\" text-anchor=\"middle\">" +
         escape(s.x_label) + "</text>";
  out += "<text transform=\"translate(14," + fmt((kTop + f.h - kBottom) / 2) + ") rotate(-90)\" text-anchor=\"middle\">" +
         escape(s.y_label + (f.log_y ? " (log)" : "")) + "</text></g>";
  return out;
}

std::string polyline(const Frame& f, const Series& s, const std::string& colour) {
  std::string pts;
  for (size_t i = 0; i < s.x.size(); ++i) {
    if (!std::isfinite(s.y[i]) || (f.log_y && s.y[i] <= 0)) continue;
    pts += fmt(f.px(s.x[i])) + "," + fmt(f.py(s.y[i])) + " ";
    if (s.step && i + 1 < s.x.size()) pts += fmt(f.px(s.x[i + 1])) + "," + fmt(f.py(s.y[i])) + " ";
  }
  return "<polyline class=\"series\" data-name=\"" + escape(s.name) + "\" data-points=\"" + std::to_string(s.x.size()) +
         "\" fill=\"none\" stroke=\"" + colour + "\" stroke-width=\"1.6\" points=\"" + pts + "\"/>";
}

std::string marker(const Frame& f, const Marker& m) {
  std::string dot = "<circle class=\"marker\" cx=\"" + fmt(f.px(m.x)) + "\" cy=\"" + fmt(f.py(m.y)) +
                    "\" r=\"4\" fill=\"#fff\" stroke=\"#d9480f\" stroke-width=\"2\"><title>" + escape(m.label) + "</title></circle>";
  return m.href.empty() ? dot : "<a href=\"" + escape(m.href) + "\">" + dot + "</a>";
}

}  // namespace

std::string svg_plot(const PlotSpec& spec) {
  Frame f{{}, {}, static_cast<double>(spec.width), static_cast<double>(spec.height), spec.log_y};
  std::vector<Series> shown;
  for (const auto& s : spec.series) shown.push_back(downsample(s, static_cast<size_t>(spec.width)));
  for (const auto& s : shown)
    for (size_t i = 0; i < s.x.size(); ++i)
      if (!spec.log_y || s.y[i] > 0) f.x.add(s.x[i]), f.y.add(spec.log_y ? std::log10(s.y[i]) : s.y[i]);
  for (const auto& m : spec.markers) f.x.add(m.x), f.y.add(spec.log_y ? std::log10(std::max(m.y, 1e-300)) : m.y);
  if (spec.x_from_zero && !f.x.empty()) f.x.add(0);
  std::string head = "<figure id=\"" + escape(spec.id) + "\"><figcaption>" + escape(spec.title) + "</figcaption>";
  if (f.x.empty()) return head + "<p class=\"muted no-data\">no data in this run</p></figure>\n";
  f.x.widen(), f.y.widen();
  std::string out = head + "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" viewBox=\"0 0 " + std::to_string(spec.width) +
                    " " + std::to_string(spec.height) + "\" width=\"" + std::to_string(spec.width) + "\" height=\"" +
                    std::to_string(spec.height) + "\">" + axes(f, spec);
  for (size_t i = 0; i < shown.size(); ++i)
    out += polyline(f, shown[i], shown[i].colour.empty() ? kPalette[i % 8] : shown[i].colour);
  for (size_t i = 0; i < shown.size(); ++i)  // a line needs two points: show lone samples as dots
    if (shown[i].x.size() <= 2)
      for (size_t k = 0; k < shown[i].x.size(); ++k)
        out += "<circle cx=\"" + fmt(f.px(shown[i].x[k])) + "\" cy=\"" + fmt(f.py(shown[i].y[k])) + "\" r=\"3\" fill=\"" +
               (shown[i].colour.empty() ? kPalette[i % 8] : shown[i].colour) + "\"/>";
  for (const auto& m : spec.markers) out += marker(f, m);
  out += "</svg><div class=\"legend\">";  // HTML, so that any number of long names wraps
  for (size_t i = 0; i < shown.size(); ++i)
    out += "<span><i style=\"background:" + (shown[i].colour.empty() ? std::string(kPalette[i % 8]) : shown[i].colour) +
           "\"></i>" + escape(shown[i].name) + "</span>";
  return out + "</div></figure>\n";
}

}  // namespace tdisc::report
