package org.picothreads.piranha;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeSet;

/**
 * Draws Piranha's charts as SVG: the {@code --compare} chart (on the left, each mode's throughput in KB/s; on the
 * right, each mode's throughput for the pages of each body size of the one mixed crawl), and the paper's Figures 3
 * (the pool's throughput against its size, the other modes as reference lines) and 4 (throughput by page size).
 */
final class Chart {

    private static final String[] COLOURS = {"#d1495b", "#00798c", "#edae49", "#30638e", "#66a182"};
    private static final int PANEL_WIDTH = 420;
    private static final int PANEL_HEIGHT = 300;
    private static final int MARGIN = 60;

    private Chart() {
    }

    /** The SVG document for the results, titled with the run's description. */
    static String svg(List<ModeResult> results, String description) {
        StringBuilder svg = new StringBuilder();
        int width = 2 * PANEL_WIDTH + 3 * MARGIN;
        int height = PANEL_HEIGHT + 2 * MARGIN + 40;
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "font-family=\"sans-serif\" font-size=\"12\">%n", width, height));
        svg.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", width, height));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"24\" font-size=\"15\">%s</text>%n", MARGIN,
                escape(description)));
        double totalMaximum = results.stream().mapToDouble(ModeResult::kilobytesPerSecond).max().orElse(1);
        int left = MARGIN;
        int top = MARGIN;
        axes(svg, left, top, "throughput per mode (KB/s)", totalMaximum);
        int barWidth = PANEL_WIDTH / Math.max(1, results.size()) - 20;
        for (int index = 0; index < results.size(); index++) {
            ModeResult result = results.get(index);
            int x = left + 10 + index * (barWidth + 20);
            bar(svg, x, top, barWidth, result.kilobytesPerSecond() / totalMaximum, COLOURS[index % COLOURS.length],
                    String.format(Locale.ROOT, "%.0f", result.kilobytesPerSecond()));
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
                    x + barWidth / 2, top + PANEL_HEIGHT + 16, result.mode().label()));
        }
        TreeSet<Integer> sizes = new TreeSet<>();
        results.forEach(result -> sizes.addAll(result.bytesBySize().keySet()));
        double sizeMaximum = 1;
        for (ModeResult result : results) {
            for (long bytes : result.bytesBySize().values()) {
                sizeMaximum = Math.max(sizeMaximum, bytes / 1024.0 / Math.max(1e-9, result.seconds()));
            }
        }
        left = 2 * MARGIN + PANEL_WIDTH;
        axes(svg, left, top, "throughput per page size (KB/s)", sizeMaximum);
        if (!sizes.isEmpty() && sizes.size() <= 12) {
            int groupWidth = PANEL_WIDTH / sizes.size();
            int modeWidth = Math.max(2, (groupWidth - 10) / Math.max(1, results.size()));
            int group = 0;
            for (int size : sizes) {
                int groupLeft = left + 5 + group * groupWidth;
                for (int index = 0; index < results.size(); index++) {
                    ModeResult result = results.get(index);
                    Map<Integer, Long> bySize = result.bytesBySize();
                    double rate = bySize.getOrDefault(size, 0L) / 1024.0 / Math.max(1e-9, result.seconds());
                    bar(svg, groupLeft + index * modeWidth, top, modeWidth - 1, rate / sizeMaximum,
                            COLOURS[index % COLOURS.length], "");
                }
                svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
                        groupLeft + groupWidth / 2 - 5, top + PANEL_HEIGHT + 16, sizeLabel(size)));
                group++;
            }
        }
        legend(svg, top, results.stream().map(result -> result.mode().label()).toList());
        svg.append("</svg>\n");
        return svg.toString();
    }

    /**
     * Figure 3: the pool's throughput against its number of threads (a logarithmic axis), with a dashed horizontal
     * line for each reference mode's throughput.
     */
    static String poolSweep(List<Integer> threads, List<Double> kilobytesPerSecond, Map<String, Double> references,
                            String description) {
        int panelWidth = 600;
        StringBuilder svg = header(panelWidth + 2 * MARGIN + 120, description);
        double maximum = 1;
        for (double value : kilobytesPerSecond) {
            maximum = Math.max(maximum, value);
        }
        for (double value : references.values()) {
            maximum = Math.max(maximum, value);
        }
        maximum *= 1.1;
        int left = MARGIN;
        int top = MARGIN;
        axes(svg, left, top, panelWidth, "throughput (KB/s) against threads in the pool", maximum);
        double low = Math.log(threads.stream().mapToInt(Integer::intValue).min().orElse(1));
        double high = Math.log(threads.stream().mapToInt(Integer::intValue).max().orElse(1));
        StringJoiner line = new StringJoiner(" ");
        for (int index = 0; index < threads.size(); index++) {
            double position = high > low ? (Math.log(threads.get(index)) - low) / (high - low) : 0.5;
            int x = left + 20 + (int) Math.round(position * (panelWidth - 40));
            int y = top + PANEL_HEIGHT - (int) Math.round(PANEL_HEIGHT * kilobytesPerSecond.get(index) / maximum);
            line.add(x + "," + y);
            svg.append(String.format(Locale.ROOT, "<circle cx=\"%d\" cy=\"%d\" r=\"4\" fill=\"%s\"/>"
                    + "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"10\">%.0f</text>"
                    + "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%d</text>%n", x, y, COLOURS[2], x, y - 8,
                    kilobytesPerSecond.get(index), x, top + PANEL_HEIGHT + 16, threads.get(index)));
        }
        svg.append(String.format(Locale.ROOT, "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" "
                + "stroke-width=\"2\"/>%n", line, COLOURS[2]));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">threads in the pool"
                + "</text>%n", left + panelWidth / 2, top + PANEL_HEIGHT + 34));
        int index = 0;
        for (Map.Entry<String, Double> reference : references.entrySet()) {
            String colour = index == 0 ? COLOURS[0] : COLOURS[(index + 2) % COLOURS.length];
            int y = top + PANEL_HEIGHT - (int) Math.round(PANEL_HEIGHT * reference.getValue() / maximum);
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" "
                    + "stroke-width=\"2\" stroke-dasharray=\"6,4\"/><text x=\"%d\" y=\"%d\" fill=\"%s\">%s %.0f"
                    + "</text>%n", left, y, left + panelWidth, y, colour, left + panelWidth + 6, y + 4, colour,
                    reference.getKey(), reference.getValue()));
            index++;
        }
        int legendY = top + PANEL_HEIGHT + 56;
        svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" "
                + "stroke-width=\"2\"/><text x=\"%d\" y=\"%d\">pool (one crawl per size)</text>"
                + "<text x=\"%d\" y=\"%d\">dashed: one thread per URL</text>%n", left, legendY, left + 24, legendY,
                COLOURS[2], left + 30, legendY + 4, left + 260, legendY + 4));
        svg.append("</svg>\n");
        return svg.toString();
    }

    /** Figure 4: for each group (a page size), a bar per series (a mode), labelled with its value. */
    static String groupedBars(Map<String, Map<String, Double>> values, String title, String description) {
        List<String> series = new ArrayList<>();
        double maximum = 1;
        for (Map<String, Double> group : values.values()) {
            for (Map.Entry<String, Double> entry : group.entrySet()) {
                if (!series.contains(entry.getKey())) {
                    series.add(entry.getKey());
                }
                maximum = Math.max(maximum, entry.getValue());
            }
        }
        maximum *= 1.1;
        int groupWidth = Math.max(40 * Math.max(1, series.size()) + 30, 600 / Math.max(1, values.size()));
        int panelWidth = groupWidth * Math.max(1, values.size());
        StringBuilder svg = header(panelWidth + 2 * MARGIN, description);
        int left = MARGIN;
        int top = MARGIN;
        axes(svg, left, top, panelWidth, title, maximum);
        int barWidth = (groupWidth - 30) / Math.max(1, series.size());
        int group = 0;
        for (Map.Entry<String, Map<String, Double>> entry : values.entrySet()) {
            int groupLeft = left + 15 + group * groupWidth;
            for (int index = 0; index < series.size(); index++) {
                Double value = entry.getValue().get(series.get(index));
                if (value != null) {
                    bar(svg, groupLeft + index * barWidth, top, barWidth - 2, value / maximum,
                            COLOURS[index % COLOURS.length], String.format(Locale.ROOT, "%.0f", value));
                }
            }
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
                    groupLeft + (groupWidth - 30) / 2, top + PANEL_HEIGHT + 16, escape(entry.getKey())));
            group++;
        }
        legend(svg, top, series);
        svg.append("</svg>\n");
        return svg.toString();
    }

    private static StringBuilder header(int width, String description) {
        int height = PANEL_HEIGHT + 2 * MARGIN + 40;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "font-family=\"sans-serif\" font-size=\"12\">%n", width, height));
        svg.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", width, height));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"24\" font-size=\"13\">%s</text>%n", MARGIN / 2,
                escape(description)));
        return svg;
    }

    private static void axes(StringBuilder svg, int left, int top, String title, double maximum) {
        axes(svg, left, top, PANEL_WIDTH, title, maximum);
    }

    private static void axes(StringBuilder svg, int left, int top, int panelWidth, String title, double maximum) {
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">%s</text>%n", left,
                top - 12, title));
        svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>%n",
                left, top, left, top + PANEL_HEIGHT));
        svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>%n",
                left, top + PANEL_HEIGHT, left + panelWidth, top + PANEL_HEIGHT));
        for (int tick = 0; tick <= 4; tick++) {
            int y = top + PANEL_HEIGHT - tick * PANEL_HEIGHT / 4;
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#ddd\"/>"
                    + "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%.0f</text>%n", left, y, left + panelWidth, y,
                    left - 4, y + 4, maximum * tick / 4));
        }
    }

    private static void bar(StringBuilder svg, int x, int top, int width, double fraction, String colour,
                            String label) {
        int height = (int) Math.round(PANEL_HEIGHT * Math.max(0, Math.min(1, fraction)));
        int y = top + PANEL_HEIGHT - height;
        svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>%n",
                x, y, width, height, colour));
        if (!label.isEmpty()) {
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
                    x + width / 2, y - 4, label));
        }
    }

    private static String sizeLabel(int bytes) {
        return bytes >= 1024 && bytes % 1024 == 0 ? bytes / 1024 + " KB" : String.format(Locale.ROOT, "%.1f KB",
                bytes / 1024.0);
    }

    /** One coloured square and label per series, in a row under the panel whose top is {@code top}. */
    private static void legend(StringBuilder svg, int top, List<String> labels) {
        for (int index = 0; index < labels.size(); index++) {
            int x = MARGIN + index * 110;
            int y = top + PANEL_HEIGHT + 40;
            svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>"
                    + "<text x=\"%d\" y=\"%d\">%s</text>%n", x, y - 10, COLOURS[index % COLOURS.length], x + 16, y,
                    escape(labels.get(index))));
        }
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
