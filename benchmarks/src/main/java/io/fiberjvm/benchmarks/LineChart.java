package io.fiberjvm.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** A small SVG line chart: one or more series of (x, y) points on a log-2 x axis and a linear y axis from 0. */
final class LineChart {

	/** One line on the chart. */
	record Series(String name, String color, List<double[]> points) {
	}

	private final String title;
	private final String xLabel;
	private final String yLabel;
	private final List<Series> series = new ArrayList<>();

	LineChart(String title, String xLabel, String yLabel) {
		this.title = title;
		this.xLabel = xLabel;
		this.yLabel = yLabel;
	}

	LineChart add(Series line) {
		series.add(line);
		return this;
	}

	String svg() {
		int width = 720;
		int height = 440;
		int left = 90;
		int right = 30;
		int top = 70;
		int bottom = 70;
		double minX = series.stream().flatMap(s -> s.points().stream()).mapToDouble(p -> p[0]).min().orElse(1);
		double maxX = series.stream().flatMap(s -> s.points().stream()).mapToDouble(p -> p[0]).max().orElse(2);
		double maxY = series.stream().flatMap(s -> s.points().stream()).mapToDouble(p -> p[1]).max().orElse(1) * 1.1;
		double spanX = Math.max(1e-9, log2(maxX) - log2(minX));
		int plotWidth = width - left - right;
		int plotHeight = height - top - bottom;
		StringBuilder svg = new StringBuilder();
		svg.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
		svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\">%n",
				width, height));
		svg.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", width, height));
		svg.append(text(width / 2.0, 28, "middle", 17, title));
		for (int i = 0; i <= 5; i++) {
			double value = maxY * i / 5;
			double y = top + plotHeight - plotHeight * i / 5.0;
			svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#dddddd\"/>%n", left, y,
					left + plotWidth, y));
			svg.append(text(left - 8, y + 4, "end", 12, String.format(Locale.ROOT, maxY >= 50 ? "%,.0f" : maxY >= 5 ? "%.1f" : "%.2f", value)));
		}
		for (double[] point : series.get(0).points()) {
			double x = left + plotWidth * (log2(point[0]) - log2(minX)) / spanX;
			svg.append(text(x, top + plotHeight + 18, "middle", 12, String.format(Locale.ROOT, "%.0f", point[0])));
		}
		svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>%n", left, top + plotHeight,
				left + plotWidth, top + plotHeight));
		svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>%n", left, top, left,
				top + plotHeight));
		svg.append(text(left + plotWidth / 2.0, height - 22, "middle", 13, xLabel));
		svg.append(String.format(Locale.ROOT, "<text x=\"22\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"13\" transform=\"rotate(-90 22 %.1f)\">%s</text>%n",
				top + plotHeight / 2.0, top + plotHeight / 2.0, escape(yLabel)));
		double legendX = left + 10;
		for (Series line : series) {
			StringBuilder path = new StringBuilder();
			for (double[] point : line.points()) {
				double x = left + plotWidth * (log2(point[0]) - log2(minX)) / spanX;
				double y = top + plotHeight - plotHeight * point[1] / maxY;
				path.append(path.length() == 0 ? "M" : " L").append(String.format(Locale.ROOT, "%.1f %.1f", x, y));
				svg.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"/>%n", x, y, line.color()));
			}
			svg.append(String.format(Locale.ROOT, "<path d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/>%n", path, line.color()));
			svg.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"44\" width=\"14\" height=\"4\" fill=\"%s\"/>%n", legendX, line.color()));
			svg.append(text(legendX + 20, 50, "start", 12, line.name()));
			legendX += 40 + line.name().length() * 7;
		}
		svg.append("</svg>\n");
		return svg.toString();
	}

	private static double log2(double x) {
		return Math.log(x) / Math.log(2);
	}

	/** An SVG text element; shared with the overhead harness's bar chart. */
	static String text(double x, double y, String anchor, int size, String content) {
		return String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\">%s</text>\n", x, y, anchor, size,
				escape(content));
	}

	static String escape(String text) {
		return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
	}
}
