package org.picothreads.piranha.crawler;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;

/** Finds the links of an HTML page, as canonical URLs without duplicates: with jsoup, or with a byte scan. */
public final class LinkExtractor {

    private static final byte[] HREF = "href=\"".getBytes(StandardCharsets.US_ASCII);

    private LinkExtractor() {
    }

    /** The canonical http URLs of the page's {@code <a href>} elements, in document order, parsed by jsoup. */
    public static List<String> links(byte[] body, String pageUrl) {
        Document document = Jsoup.parse(new String(body, StandardCharsets.UTF_8), pageUrl);
        Set<String> links = new LinkedHashSet<>();
        for (Element anchor : document.select("a[href]")) {
            String canonical = UrlNormalizer.normalize(anchor.absUrl("href"));
            if (canonical != null) {
                links.add(canonical);
            }
        }
        return new ArrayList<>(links);
    }

    /**
     * The same links found without an HTML parser: each double-quoted {@code href="..."} value, resolved against the
     * page's URL. This is the fetch-only mode's extraction, a few comparisons per byte.
     */
    public static List<String> scannedLinks(byte[] body, String pageUrl) {
        Set<String> links = new LinkedHashSet<>();
        java.net.URI base = java.net.URI.create(pageUrl);
        int index = 0;
        while ((index = indexOf(body, HREF, index)) >= 0) {
            int start = index + HREF.length;
            int end = start;
            while (end < body.length && body[end] != '"') {
                end++;
            }
            String href = new String(body, start, end - start, StandardCharsets.UTF_8).replace("&amp;", "&");
            try {
                String canonical = UrlNormalizer.normalize(base.resolve(href).toString());
                if (canonical != null) {
                    links.add(canonical);
                }
            } catch (IllegalArgumentException malformed) {
                // a link that is not a URI is no link
            }
            index = end;
        }
        return new ArrayList<>(links);
    }

    private static int indexOf(byte[] haystack, byte[] needle, int from) {
        outer:
        for (int start = from; start <= haystack.length - needle.length; start++) {
            for (int offset = 0; offset < needle.length; offset++) {
                if (haystack[start + offset] != needle[offset]) {
                    continue outer;
                }
            }
            return start;
        }
        return -1;
    }
}
