package org.picothreads.piranha;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.picothreads.piranha.api.CrawlSettings;
import org.picothreads.piranha.web.PageSizes;
import org.picothreads.piranha.web.SyntheticWeb;
import org.picothreads.piranha.web.WebServer;

class CrawlInEveryModeTest {

    private static final String REWRITTEN_MARKER = "org.picothreads.runtime.internal.Rewritten";

    @ParameterizedTest
    @EnumSource(Mode.class)
    void a_small_crawl_finds_exactly_the_pages_the_seed_generates(Mode mode) throws Exception {
        assumeTrue(mode != Mode.VIRTUAL || VirtualSpawner.isAvailable(), "virtual threads need JDK 21");
        SyntheticWeb web = new SyntheticWeb(2024, 150, 5, 3, PageSizes.parse("mix:1k,3k"));
        try (WebServer server = WebServer.start(web, 0, 5)) {
            ModeRunner runner = new ModeRunner(CrawlSettings.unlimited().withMaxFetching(50), 8, 10_000, 60, 150,
                    null);
            ModeResult result = runner.run(mode, server.rootUrl());
            assertTrue(result.finished(), "the crawl ended by itself");
            assertEquals(web.pageUrls(server.ports()), result.pageUrls());
            assertEquals(150, result.pages());
            assertEquals(web.brokenLinkCount(), result.errors(), "one 404 per broken link, none for example.com");
            assertEquals(0, result.discarded());
        }
    }

    @Test
    void fetch_only_mode_finds_the_same_pages() throws Exception {
        SyntheticWeb web = new SyntheticWeb(99, 80, 4, 2, PageSizes.parse("2k"));
        try (WebServer server = WebServer.start(web, 0, 0)) {
            CrawlSettings fetchOnly = new CrawlSettings(Integer.MAX_VALUE, Integer.MAX_VALUE, 50, 50, 5_000, 5_000,
                    5, true);
            ModeResult result = new ModeRunner(fetchOnly, 4, 1000, 60, 80, null).run(Mode.PLATFORM,
                    server.rootUrl());
            assertEquals(web.pageUrls(server.ports()), result.pageUrls());
        }
    }

    @Test
    void a_page_budget_stops_the_crawl_short() throws Exception {
        SyntheticWeb web = new SyntheticWeb(3, 200, 4, 2, PageSizes.parse("1k"));
        try (WebServer server = WebServer.start(web, 0, 0)) {
            ModeResult result = new ModeRunner(CrawlSettings.unlimited().withMaxPages(20), 4, 1000, 60, 20, null)
                    .run(Mode.PLATFORM, server.rootUrl());
            assertTrue(result.finished());
            assertTrue(result.pages() <= 20 && result.pages() > 0, result.pages() + " pages");
        }
    }

    @Test
    void pico_mode_runs_the_rewritten_crawler_and_the_other_modes_the_untransformed_copy() throws IOException {
        boolean rewritten = Arrays.stream(org.picothreads.piranha.crawler.PiranhaCrawl.class.getAnnotations())
                .anyMatch(annotation -> annotation.annotationType().getName().equals(REWRITTEN_MARKER));
        assertTrue(rewritten, "the class path's crawler is the rewritten one");
        byte[] rewrittenBytes = bytes("org/picothreads/piranha/crawler/PiranhaCrawl.class");
        byte[] untransformedBytes = bytes(CrawlerLoader.UNTRANSFORMED_DIRECTORY
                + "org/picothreads/piranha/crawler/PiranhaCrawl.class");
        assertNotEquals(rewrittenBytes.length, untransformedBytes.length);
        assertTrue(new String(rewrittenBytes, java.nio.charset.StandardCharsets.ISO_8859_1).contains("picothreads/runtime"));
        assertTrue(!new String(untransformedBytes, java.nio.charset.StandardCharsets.ISO_8859_1)
                .contains("picothreads/runtime"));
    }

    private static byte[] bytes(String resource) throws IOException {
        try (InputStream input = CrawlInEveryModeTest.class.getClassLoader().getResourceAsStream(resource)) {
            return input.readAllBytes();
        }
    }
}
