package org.picothreads.piranha;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.picothreads.piranha.web.PageSizes;
import org.picothreads.piranha.web.SyntheticWeb;
import picocli.CommandLine;

class FiguresTest {

    private static final Pattern POINT = Pattern.compile("\"figure\": (\\d), \"round\": (\\d+), "
            + "\"pageSize\": \"([^\"]+)\", "
            + "\"poolSize\": (\\d+), \"expectedPages\": (\\d+), \"expectedErrors\": (\\d+), \"mode\": \"(\\w+)\", "
            + "\"pages\": (\\d+), .*\"kilobytesPerSecond\": ([0-9.]+), .*\"errors\": (\\d+), .*\"finished\": (\\w+), "
            + "\"cpuSeconds\": (-?[0-9.]+)");

    /** One crawl of figures.json. */
    private record Point(int figure, int round, String pageSize, int poolSize, int expectedPages, int expectedErrors,
                         String mode, int pages, double kilobytesPerSecond, int errors, boolean finished,
                         double cpuSeconds) {
    }

    @Test
    void figures_crawl_the_whole_web_once_per_pool_size_and_once_per_round_page_size_and_mode(@TempDir Path directory)
            throws Exception {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        int exit = new CommandLine(new PiranhaCommand(System.out, new PrintStream(log, true, StandardCharsets.UTF_8)))
                .execute("--figures", directory.toString(), "--pages", "60", "--links", "4", "--hosts", "2",
                        "--rate", "0", "--latency", "5", "--seconds", "30", "--warmup", "0", "--pool-sizes", "2,8",
                        "--sizes", "1k,4k", "--page-size", "2k", "--rounds", "2");
        assertEquals(0, exit, log.toString(StandardCharsets.UTF_8));
        List<Point> points = points(Files.readString(directory.resolve("figures.json")));
        List<String> references = VirtualSpawner.isAvailable() ? List.of("pico", "platform", "virtual")
                : List.of("pico", "platform");
        List<String> figure3 = new ArrayList<>();
        List<String> figure4 = new ArrayList<>();
        for (Point point : points) {
            (point.figure() == 3 ? figure3 : figure4).add(point.mode() + " " + point.poolSize() + " "
                    + point.pageSize() + " round " + point.round());
            SyntheticWeb web = new SyntheticWeb(1998, 60, 4, 2, PageSizes.parse(point.pageSize()));
            assertEquals(60, point.expectedPages());
            assertEquals(web.brokenLinkCount(), point.expectedErrors());
            assertTrue(point.finished(), point.toString());
            assertEquals(60, point.pages(), "the crawl found every page the seed generates: " + point);
            assertEquals(web.brokenLinkCount(), point.errors(), "and each broken link once: " + point);
            assertTrue(point.kilobytesPerSecond() > 0, point.toString());
            assertTrue(point.cpuSeconds() > 0, "the crawler's CPU time is measured: " + point);
        }
        List<String> expected3 = new ArrayList<>(List.of("pool 2 2k round 1", "pool 8 2k round 1"));
        references.forEach(mode -> expected3.add(mode + " 0 2k round 1"));
        assertEquals(expected3, figure3, "one point per pool size, then the reference modes, whatever the rounds");
        List<String> expected4 = new ArrayList<>();
        for (String size : List.of("1k", "4k")) {
            for (int round = 1; round <= 2; round++) {
                for (String mode : references) {
                    expected4.add(mode + " 0 " + size + " round " + round);
                }
            }
        }
        expected4.sort(null);
        figure4.sort(null);
        assertEquals(expected4, figure4, "one crawl per round, page size and mode");
        for (String chart : List.of("figure3.svg", "figure4.svg")) {
            String svg = Files.readString(directory.resolve(chart));
            assertTrue(svg.startsWith("<svg") && svg.contains("pico"), chart);
        }
    }

    @Test
    void a_result_passes_from_one_jvm_to_another_unchanged() throws Exception {
        ModeResult result = new ModeResult(Mode.VIRTUAL, 12, 3.5, 40_960, 9, 1 << 20, 14, 7, 2, 1, true,
                Map.of(1024, 20_480L, 2048, 20_480L), Set.of(), 1.25, "ForkJoinPool-1-worker-1", 0.5, 0.75, 0.25);
        StringWriter written = new StringWriter();
        Reports.writeProperties(result, written);
        assertEquals(result, Reports.readProperties(new StringReader(written.toString())));
    }

    @Test
    void a_bad_pool_size_is_refused_with_one_line() {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        int exit = new CommandLine(new PiranhaCommand(System.out, new PrintStream(log, true, StandardCharsets.UTF_8)))
                .execute("--figures", "unused", "--pool-sizes", "4,0");
        assertEquals(2, exit);
        assertTrue(log.toString(StandardCharsets.UTF_8).contains("--pool-sizes"));
    }

    private static List<Point> points(String json) {
        List<Point> points = new ArrayList<>();
        for (String line : json.split("\n")) {
            Matcher matcher = POINT.matcher(line);
            if (matcher.find()) {
                points.add(new Point(Integer.parseInt(matcher.group(1)), Integer.parseInt(matcher.group(2)),
                        matcher.group(3), Integer.parseInt(matcher.group(4)), Integer.parseInt(matcher.group(5)),
                        Integer.parseInt(matcher.group(6)), matcher.group(7), Integer.parseInt(matcher.group(8)),
                        Double.parseDouble(matcher.group(9)), Integer.parseInt(matcher.group(10)),
                        Boolean.parseBoolean(matcher.group(11)), Double.parseDouble(matcher.group(12))));
            }
        }
        return points;
    }
}
