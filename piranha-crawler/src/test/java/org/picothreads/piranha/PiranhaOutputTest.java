package org.picothreads.piranha;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.picothreads.piranha.web.PageSizes;
import org.picothreads.piranha.web.SyntheticWeb;
import picocli.CommandLine;

class PiranhaOutputTest {

    @Test
    void a_crawl_whose_output_is_not_a_terminal_prints_progress_as_lines_and_explains_the_errors_column() {
        SyntheticWeb web = new SyntheticWeb(1998, 80, 4, 2, PageSizes.parse("2k"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = new CommandLine(new PiranhaCommand(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)))
                .execute("--mode", "platform", "--pages", "80", "--links", "4", "--hosts", "2", "--page-size", "2k",
                        "--rate", "0", "--latency", "5", "--seconds", "60");
        String log = err.toString(StandardCharsets.UTF_8);
        String table = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit, log);
        assertFalse(log.contains("\r"), "this test's stderr is no terminal, so no carriage return: " + log);
        assertTrue(log.lines().anyMatch(line -> line.matches("platform +\\d+ of 80 pages .* live threads .* s")),
                log);
        List<String> rows = table.lines().toList();
        String[] platformRow = rows.get(2).trim().split(" +");
        assertEquals("platform", platformRow[0]);
        assertEquals("80", platformRow[1], table);
        assertEquals(Integer.toString(web.brokenLinkCount()), platformRow[9], table);
        assertEquals("errors: fetches that failed (a status other than 200, a refused or reset connection, a timeout);"
                + " the synthetic web links to a missing page " + web.brokenLinkCount() + " times on purpose (a 404"
                + " each), so a crawl of all of it counts " + web.brokenLinkCount() + " errors.", rows.get(3));
    }

    @Test
    void an_unknown_progress_style_is_refused_with_exit_code_two() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = new CommandLine(new PiranhaCommand(System.out, new PrintStream(err, true, StandardCharsets.UTF_8)))
                .execute("--progress", "dots");
        assertEquals(2, exit);
        assertEquals("piranha: unknown progress style 'dots': bar or lines",
                err.toString(StandardCharsets.UTF_8).trim());
    }
}
