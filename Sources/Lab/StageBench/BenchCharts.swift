import Foundation
import Support

/// SVG charts of a bench run, drawn by hand: no dependency. Each plots the rounded figures its
/// table prints, each carrying the same text (`data-value`), so a test can check a chart against
/// its table, and a rerun leaves a chart as it was unless a rounded figure moved.
package enum BenchCharts {
  /// The charts of `report`, as file names and SVG documents: `bench-fanout.svg`,
  /// `bench-churn.svg` and, when allocations were counted, `bench-memory.svg`.
  package static func charts(of report: BenchReport) -> [(name: String, svg: String)] {
    func series(_ points: (BenchReport.Row) -> [Point]) -> [Series] {
      report.rows.map { ($0.contender, points($0)) }
    }
    let fanOut = lineChart(
      title: "Time per observer callback, as a multiple of the floor's (log-log)",
      xLabel: "observers notified by one set, N", yLabel: "× the floor, median",
      series: series {
        $0.fanOut.map { point($0.observers, rounding: $0.ratioToFloor, prefix: "×") }
      })
    let churn = lineChart(
      title: "Adding then removing N observers (log-log: slope 1 linear, slope 2 quadratic)",
      xLabel: "observers added, then removed, N", yLabel: "milliseconds",
      series: series { $0.churn.map { point($0.observers, rounding: $0.milliseconds) } })
    guard report.allocationCounting else {
      return [("bench-fanout.svg", fanOut), ("bench-churn.svg", churn)]
    }
    let memory = barChart(
      title: "Heap bytes per registered observer", yLabel: "bytes per observer",
      bars: report.rows.map { ($0.contender, ($0.bytesPerObserver ?? 0).rounded()) })
    return [("bench-fanout.svg", fanOut), ("bench-churn.svg", churn), ("bench-memory.svg", memory)]
  }

  /// A figure rounded by ``roughly(_:)``, and its text as the table prints it.
  typealias Point = (x: Double, y: Double, label: String)
  typealias Series = (name: String, points: [Point])

  static func point(_ x: Int, rounding value: Double, prefix: String = "") -> Point {
    (Double(x), roughly(value), prefix + rough(value))
  }

  // MARK: - Drawing

  static let width = 760.0
  static let height = 460.0
  static let margin = (left: 80.0, right: 190.0, top: 48.0, bottom: 64.0)
  static let plot = (
    x: margin.left, y: margin.top, width: width - margin.left - margin.right,
    height: height - margin.top - margin.bottom
  )

  /// Distinct on light and dark backgrounds alike.
  static let palette = [
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf",
    "#bcbd22", "#7f7f7f", "#393b79", "#ad494a",
  ]

  /// Text and axes in a grey readable on white and on black, lighter when the reader's system is
  /// dark.
  static let style = """
    <style>
      text { font-family: -apple-system, Helvetica, Arial, sans-serif; font-size: 12px; fill: #666; }
      .title { font-size: 15px; font-weight: bold; }
      .axis { stroke: #888; stroke-width: 1; }
      .grid { stroke: #888; stroke-opacity: 0.25; stroke-width: 1; }
      @media (prefers-color-scheme: dark) { text { fill: #bbb; } }
    </style>
    """

  static func escaped(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;")
  }

  static func number(_ value: Double) -> String { String(format: "%.1f", value) }

  /// Powers of ten from below `low` to above `high`.
  static func decades(_ low: Double, _ high: Double) -> [Double] {
    let first = floor(log10(max(low, 1e-9)))
    let last = ceil(log10(max(high, 1e-9)))
    return stride(from: first, through: max(last, first + 1), by: 1).map { pow(10, $0) }
  }

  static func lineChart(title: String, xLabel: String, yLabel: String, series: [Series])
    -> String
  {
    let xs = series.flatMap { $0.points.map(\.x) }
    let ys = series.flatMap { $0.points.map(\.y) }.filter { $0 > 0 }
    let xTicks = decades(xs.min() ?? 1, xs.max() ?? 10)
    let yTicks = decades(ys.min() ?? 1, ys.max() ?? 10)
    /// Where `value` lies from the first of `ticks` (0) to the last (1), on a log scale.
    func position(_ value: Double, among ticks: [Double]) -> Double {
      (log10(value) - log10(ticks.first!)) / (log10(ticks.last!) - log10(ticks.first!))
    }
    func px(_ x: Double) -> Double { plot.x + position(x, among: xTicks) * plot.width }
    func py(_ y: Double) -> Double {
      plot.y + plot.height - position(max(y, yTicks.first!), among: yTicks) * plot.height
    }
    var svg = header(title: title)
    for tick in xTicks {
      svg += line("grid", px(tick), plot.y, px(tick), plot.y + plot.height)
      svg += text(px(tick), plot.y + plot.height + 18, anchor: "middle", figure(tick))
    }
    for tick in yTicks { svg += yTick(py(tick), label: figure(tick)) }
    svg += axes(xLabel: xLabel, yLabel: yLabel)
    for (index, line) in series.enumerated() {
      let color = palette[index % palette.count]
      let path = line.points.map { "\(number(px($0.x))),\(number(py($0.y)))" }
        .joined(separator: " ")
      svg += "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\" points=\"\(path)\"/>\n"
      for point in line.points {
        svg +=
          "<circle cx=\"\(number(px(point.x)))\" cy=\"\(number(py(point.y)))\" r=\"3\" "
          + "fill=\"\(color)\" data-contender=\"\(escaped(line.name))\" "
          + "data-x=\"\(Int(point.x))\" data-value=\"\(point.label)\">"
          + "<title>\(escaped(line.name)), N=\(grouped(Int(point.x))): \(point.label)</title>"
          + "</circle>\n"
      }
      svg += legend(index: index, name: line.name, color: color)
    }
    return svg + "</svg>\n"
  }

  static func barChart(title: String, yLabel: String, bars: [(String, Double)]) -> String {
    let top = max(bars.map(\.1).max() ?? 1, 1)
    let step = pow(10, floor(log10(top)))
    let ceiling = (top / step).rounded(.up) * step
    var svg = header(title: title)
    for tick in stride(from: 0, through: ceiling, by: step) {
      svg += yTick(plot.y + plot.height - tick / ceiling * plot.height, label: figure(tick))
    }
    svg += axes(xLabel: "", yLabel: yLabel)
    let slot = plot.width / Double(max(bars.count, 1))
    for (index, bar) in bars.enumerated() {
      let color = palette[index % palette.count]
      let barHeight = bar.1 / ceiling * plot.height
      let x = plot.x + Double(index) * slot + slot * 0.15
      svg +=
        "<rect x=\"\(number(x))\" y=\"\(number(plot.y + plot.height - barHeight))\" "
        + "width=\"\(number(slot * 0.7))\" height=\"\(number(barHeight))\" fill=\"\(color)\" "
        + "data-contender=\"\(escaped(bar.0))\" data-value=\"\(wholeBytes(bar.1))\">"
        + "<title>\(escaped(bar.0)): \(wholeBytes(bar.1)) bytes</title></rect>\n"
      svg += text(
        x + slot * 0.35, plot.y + plot.height - barHeight - 5, anchor: "middle", wholeBytes(bar.1))
      svg += legend(index: index, name: bar.0, color: color)
    }
    return svg + "</svg>\n"
  }

  static func header(title: String) -> String {
    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" "
      + "viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\">\n"
      + style + "\n"
      + "<title>\(escaped(title))</title>\n"
      + "<text class=\"title\" x=\"\(number(margin.left))\" y=\"28\">\(escaped(title))</text>\n"
  }

  static func axes(xLabel: String, yLabel: String) -> String {
    let bottom = plot.y + plot.height
    var svg =
      line("axis", plot.x, bottom, plot.x + plot.width, bottom)
      + line("axis", plot.x, plot.y, plot.x, bottom)
    if !xLabel.isEmpty {
      svg += text(plot.x + plot.width / 2, height - 18, anchor: "middle", escaped(xLabel))
    }
    svg +=
      "<text transform=\"translate(18 \(number(plot.y + plot.height / 2))) rotate(-90)\" "
      + "text-anchor=\"middle\">\(escaped(yLabel))</text>\n"
    return svg
  }

  /// A horizontal grid line at `y`, labelled at its left.
  static func yTick(_ y: Double, label: String) -> String {
    line("grid", plot.x, y, plot.x + plot.width, y) + text(plot.x - 8, y + 4, anchor: "end", label)
  }

  static func line(_ kind: String, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double)
    -> String
  {
    "<line class=\"\(kind)\" x1=\"\(number(x1))\" y1=\"\(number(y1))\" "
      + "x2=\"\(number(x2))\" y2=\"\(number(y2))\"/>\n"
  }

  static func text(_ x: Double, _ y: Double, anchor: String, _ content: String) -> String {
    "<text x=\"\(number(x))\" y=\"\(number(y))\" text-anchor=\"\(anchor)\">\(content)</text>\n"
  }

  static func legend(index: Int, name: String, color: String) -> String {
    let x = width - margin.right + 16
    let y = margin.top + 8 + Double(index) * 20
    return "<rect x=\"\(number(x))\" y=\"\(number(y - 9))\" width=\"12\" height=\"12\" "
      + "fill=\"\(color)\"/>\n"
      + "<text x=\"\(number(x + 18))\" y=\"\(number(y + 1))\">\(escaped(name))</text>\n"
  }
}
