package org.picothreads.transform.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class AgentOptionsTest {
    @Test
    void no_arguments_choose_every_class_without_a_report() {
        AgentOptions options = AgentOptions.parse(null);
        assertTrue(options.filter().accepts("com.example.Anything"));
        assertNull(options.report());
        assertFalse(options.verbose());
    }

    @Test
    void settings_are_separated_by_semicolons_and_patterns_by_commas() {
        AgentOptions options = AgentOptions.parse("includes=com.example.*,org.lib.*;excludes=com.example.old.*;"
                + "report=out/report.json;verbose");
        assertEquals(List.of("com.example.*", "org.lib.*"), options.filter().includes());
        assertEquals(List.of("com.example.old.*"), options.filter().excludes());
        assertEquals(Path.of("out/report.json"), options.report());
        assertTrue(options.verbose());
        assertFalse(options.filter().accepts("com.example.old.Worker"));
    }

    @Test
    void an_unknown_option_is_refused_with_the_list_of_options() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> AgentOptions.parse("include=com.example.*"));
        assertTrue(refused.getMessage().startsWith("pico-agent: 'include=com.example.*' is not an option; the options"
                + " are includes="), refused.getMessage());
    }
}
