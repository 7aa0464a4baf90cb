package org.picothreads.piranha;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProgressDisplayTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void lines_style_prints_a_whole_line_at_most_every_two_seconds_and_no_carriage_return() {
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        ProgressDisplay display = new ProgressDisplay(new PrintStream(output, true, StandardCharsets.UTF_8),
                ProgressDisplay.Style.LINES);
        display.show(0, "pico", 0, 100, 0, 1);
        display.show(3 * SECOND / 10, "pico", 5, 100, 3072, 4);
        display.show(19 * SECOND / 10, "pico", 20, 100, 10240, 9);
        display.show(2 * SECOND, "pico", 25, 100, 20480, 12);
        display.show(45 * SECOND / 10, "pico", 100, 100, 40960, 0);
        display.end();
        String text = output.toString(StandardCharsets.UTF_8);
        assertFalse(text.contains("\r"), text);
        assertEquals(List.of(
                "pico           0 of 100 pages       0.0 KB/s       1 live threads    0.0 s",
                "pico          25 of 100 pages      10.0 KB/s      12 live threads    2.0 s",
                "pico         100 of 100 pages       8.0 KB/s       0 live threads    4.5 s"),
                text.lines().toList());
    }

    @Test
    void bar_style_redraws_one_line_in_place_and_clears_it_at_the_end() {
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        ProgressDisplay display = new ProgressDisplay(new PrintStream(output, true, StandardCharsets.UTF_8),
                ProgressDisplay.Style.BAR);
        display.show(0, "virtual", 0, 100, 0, 1);
        display.show(3 * SECOND / 10, "virtual", 50, 100, 3072, 4);
        display.end();
        String text = output.toString(StandardCharsets.UTF_8);
        assertFalse(text.contains("\n"), text);
        assertEquals(4, text.chars().filter(character -> character == '\r').count(), text);
        assertTrue(text.contains("\rvirtual  [############............]      50 pages      10.0 KB/s       4 live"
                + " threads    0.3 s"), text);
        assertTrue(text.endsWith("\r" + " ".repeat(100) + "\r"), text);
    }

    @Test
    void styles_are_named_bar_and_lines_on_the_command_line() {
        assertEquals(ProgressDisplay.Style.LINES, ProgressDisplay.Style.parse("lines"));
        assertEquals(ProgressDisplay.Style.BAR, ProgressDisplay.Style.parse(" BAR "));
        assertEquals("lines", ProgressDisplay.Style.LINES.label());
    }
}
