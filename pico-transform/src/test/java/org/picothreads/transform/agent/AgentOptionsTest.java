package org.picothreads.transform.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AgentOptionsTest {
    @Test
    void no_arguments_choose_every_class_without_a_report() {
        AgentOptions options = AgentOptions.parse(null);
        assertTrue(options.filter().accepts("com.example.Anything"));
        assertNull(options.report());
        assertFalse(options.verbose());
        assertNull(options.carriers());
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
    void the_cache_is_kept_under_the_user_cache_directory_unless_named_or_off() {
        AgentOptions defaults = AgentOptions.parse(null);
        String cacheHome = System.getenv("XDG_CACHE_HOME");
        Path expected = cacheHome != null && !cacheHome.isEmpty() && Path.of(cacheHome).isAbsolute()
                ? Path.of(cacheHome, "picothreads", "agent")
                : Path.of(System.getProperty("user.home"), ".cache", "picothreads", "agent");
        assertEquals(expected, defaults.cache());
        assertTrue(defaults.usesCache());
        assertEquals(Path.of("build/pico-cache"), AgentOptions.parse("cache=build/pico-cache").cache());
        assertNull(AgentOptions.parse("cache=off").cache());
        assertFalse(AgentOptions.parse("cache=off").usesCache());
        assertFalse(AgentOptions.parse("report=r.json").usesCache(), "a report needs every class analysed");
        assertFalse(AgentOptions.parse("verbose").usesCache(), "so does the verbose line");
        assertThrows(IllegalArgumentException.class, () -> AgentOptions.parse("cache=a;cache=b"));
        assertThrows(IllegalArgumentException.class, () -> AgentOptions.parse("cache="));
    }

    @Test
    void an_unknown_option_is_refused_with_the_list_of_options() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> AgentOptions.parse("include=com.example.*"));
        assertTrue(refused.getMessage().startsWith("pico-agent: 'include=com.example.*' is not an option; the options"
                + " are includes="), refused.getMessage());
    }

    @Test
    void carriers_takes_a_whole_number_from_1_to_32767() {
        assertEquals(4, AgentOptions.parse("includes=com.example.*;carriers=4").carriers());
        assertEquals(1, AgentOptions.parse("carriers=1").carriers());
        assertEquals(32767, AgentOptions.parse("carriers= 32767 ").carriers());
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-1", "32768", "four", "2.5", "99999999999"})
    void a_carriers_value_that_is_not_a_whole_number_from_1_to_32767_is_refused_naming_it(String value) {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> AgentOptions.parse("carriers=" + value));
        assertTrue(refused.getMessage().startsWith("pico-agent: 'carriers=" + value + "' is not a whole number from 1"
                + " to 32767; the options are includes="), refused.getMessage());
    }

    @Test
    void carriers_given_twice_is_refused() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> AgentOptions.parse("carriers=2;carriers=3"));
        assertTrue(refused.getMessage().startsWith("pico-agent: 'carriers' is given twice; the options are"),
                refused.getMessage());
    }
}
