package example;

import static org.junit.jupiter.api.Assertions.assertEquals;

import example.legacy.Legacy;
import org.junit.jupiter.api.Test;

class ExcludesTest {
    @Test
    void an_included_class_starts_pico_threads() throws InterruptedException {
        assertEquals("org.picothreads.runtime.PicoThread", Modern.threadClass());
    }

    @Test
    void an_excluded_class_starts_platform_threads() throws InterruptedException {
        assertEquals("java.lang.Thread", Legacy.threadClass());
    }
}
