package org.picothreads.piranha.crawler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class LinkExtractorTest {

    private static final String PAGE_URL = "http://127.0.0.1:8080/docs/guide/index.html";
    private static final byte[] HTML = ("<html><body>"
            + "<a href=\"intro.html\">relative</a>"
            + "<a href=\"/top.html\">root-relative</a>"
            + "<a href=\"../api/list.html#section\">dot segments and a fragment</a>"
            + "<a href=\"http://127.0.0.1:8081/other.html\">absolute on another port</a>"
            + "<a href=\"HTTP://127.0.0.1:8080/docs/guide/intro.html#again\">the first link, spelled otherwise</a>"
            + "<a href=\"./intro.html\">the first link once more</a>"
            + "<a href=\"http://example.com/\">another machine</a>"
            + "<a href=\"mailto:someone@example.com\">not http</a>"
            + "<a href=\"search?q=a&amp;page=2\">a query</a>"
            + "<a name=\"no-href\">an anchor without href</a>"
            + "</body></html>").getBytes(StandardCharsets.UTF_8);
    private static final List<String> EXPECTED = List.of(
            "http://127.0.0.1:8080/docs/guide/intro.html",
            "http://127.0.0.1:8080/top.html",
            "http://127.0.0.1:8080/docs/api/list.html",
            "http://127.0.0.1:8081/other.html",
            "http://example.com/",
            "http://127.0.0.1:8080/docs/guide/search?q=a&page=2");

    @Test
    void jsoup_extraction_resolves_normalises_and_deduplicates_links_in_document_order() {
        assertEquals(EXPECTED, LinkExtractor.links(HTML, PAGE_URL));
    }

    @Test
    void the_fetch_only_scan_finds_the_same_links() {
        assertEquals(EXPECTED, LinkExtractor.scannedLinks(HTML, PAGE_URL));
    }

    @Test
    void normalisation_lowercases_drops_default_port_and_fragment_and_resolves_dots() {
        assertEquals("http://127.0.0.1/b/c", UrlNormalizer.normalize("HTTP://127.0.0.1:80/a/../b/./c#x"));
        assertEquals("http://127.0.0.1:81/", UrlNormalizer.normalize("http://127.0.0.1:81"));
        assertNull(UrlNormalizer.normalize("ftp://127.0.0.1/file"));
        assertNull(UrlNormalizer.normalize("not a url"));
    }

    @Test
    void only_the_loopback_address_counts_as_crawlable() {
        assertTrue(UrlNormalizer.isLoopback("http://127.0.0.1:8080/a"));
        assertTrue(UrlNormalizer.isLoopback("http://127.0.0.1/a"));
        assertFalse(UrlNormalizer.isLoopback("http://127.0.0.10/a"));
        assertFalse(UrlNormalizer.isLoopback("http://example.com/a"));
    }
}
