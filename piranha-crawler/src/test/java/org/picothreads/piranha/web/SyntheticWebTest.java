package org.picothreads.piranha.web;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class SyntheticWebTest {

    private static final int[] PORTS = {8001, 8002, 8003};

    private static SyntheticWeb web(long seed) {
        return new SyntheticWeb(seed, 300, 6, PORTS.length, PageSizes.parse("mix:1k,4k"));
    }

    @Test
    void the_same_seed_generates_the_same_pages_hosts_and_codings() {
        SyntheticWeb first = web(42);
        SyntheticWeb second = web(42);
        for (int page = 0; page < first.pageCount(); page++) {
            assertArrayEquals(first.render(page, PORTS), second.render(page, PORTS), "page " + page);
            assertEquals(first.hostOf(page), second.hostOf(page));
            assertEquals(first.isChunked(page), second.isChunked(page));
        }
        assertEquals(first.brokenLinkCount(), second.brokenLinkCount());
    }

    @Test
    void a_different_seed_generates_a_different_web() {
        SyntheticWeb first = web(42);
        SyntheticWeb second = web(43);
        int differentPages = 0;
        for (int page = 0; page < first.pageCount(); page++) {
            differentPages += Arrays.equals(first.render(page, PORTS), second.render(page, PORTS)) ? 0 : 1;
        }
        assertTrue(differentPages > first.pageCount() / 2, differentPages + " pages differ");
    }

    @Test
    void pages_have_the_sizes_of_the_distribution_and_page_zero_is_on_the_first_host() {
        SyntheticWeb web = web(7);
        assertEquals(0, web.hostOf(0));
        for (int page = 0; page < web.pageCount(); page++) {
            int size = web.render(page, PORTS).length;
            assertTrue(size == 1024 || size == 4096, "page " + page + " has " + size + " bytes");
        }
    }

    @Test
    void page_sizes_are_read_in_their_three_forms() {
        java.util.SplittableRandom random = new java.util.SplittableRandom(1);
        assertEquals(20_480, PageSizes.parse("20k").sample(random));
        int uniform = PageSizes.parse("uniform:2k-3k").sample(random);
        assertTrue(uniform >= 2048 && uniform <= 3072, "uniform gave " + uniform);
        int mixed = PageSizes.parse("mix:1k,1m").sample(random);
        assertTrue(mixed == 1024 || mixed == 1_048_576, "mix gave " + mixed);
        assertFalse(PageSizes.parse("mix:5").toString().isEmpty());
    }
}
