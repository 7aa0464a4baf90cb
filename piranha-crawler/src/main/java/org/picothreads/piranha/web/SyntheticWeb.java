package org.picothreads.piranha.web;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * A web generated from a seed: page {@code i} lives at {@code /page/i.html} on one of several hosts, links to its
 * children {@code i*B+1 .. i*B+B} (so every page is reachable from page 0) and to random pages, in every form a
 * crawler must understand: root-relative, document-relative, absolute on another host, with a fragment, through a
 * redirect ({@code /moved/i}); some pages also link to a missing page and to an address off this machine. The same
 * seed and parameters always give the same pages.
 */
public final class SyntheticWeb {

    private static final String FILLER = filler();

    private final long seed;
    private final int pageCount;
    private final int linksPerPage;
    private final int hostCount;
    private final PageSizes sizes;
    /** Children per page in the spanning tree. */
    private final int branching;

    public SyntheticWeb(long seed, int pageCount, int linksPerPage, int hostCount, PageSizes sizes) {
        if (pageCount < 1 || linksPerPage < 1 || hostCount < 1) {
            throw new IllegalArgumentException("a web needs at least one page, one link per page and one host");
        }
        this.seed = seed;
        this.pageCount = pageCount;
        this.linksPerPage = linksPerPage;
        this.hostCount = hostCount;
        this.sizes = sizes;
        this.branching = Math.max(2, (linksPerPage + 1) / 2);
    }

    public long seed() {
        return seed;
    }

    public int pageCount() {
        return pageCount;
    }

    public int hostCount() {
        return hostCount;
    }

    /** The host (an index into the server's ports) that serves the page; page 0 is on host 0. */
    public int hostOf(int page) {
        return page == 0 ? 0 : random(page).nextInt(hostCount);
    }

    /** Whether the server sends the page with chunked transfer coding instead of a Content-Length. */
    public boolean isChunked(int page) {
        SplittableRandom random = random(page);
        random.nextInt(hostCount);
        return random.nextInt(3) == 0;
    }

    /** Whether the page links to a missing page (a 404 for the crawler). */
    public boolean hasBrokenLink(int page) {
        return pageRandomTail(page).nextInt(4) == 0;
    }

    /** The canonical URL of a page, given the ports the hosts listen on. */
    public String pageUrl(int page, int[] ports) {
        return "http://127.0.0.1:" + ports[hostOf(page)] + "/page/" + page + ".html";
    }

    /** The canonical URLs of every page, which a complete crawl from page 0 finds. */
    public Set<String> pageUrls(int[] ports) {
        Set<String> urls = new LinkedHashSet<>();
        for (int page = 0; page < pageCount; page++) {
            urls.add(pageUrl(page, ports));
        }
        return urls;
    }

    /** How many pages link to a missing page: the 404s a complete crawl meets. */
    public int brokenLinkCount() {
        int count = 0;
        for (int page = 0; page < pageCount; page++) {
            count += hasBrokenLink(page) ? 1 : 0;
        }
        return count;
    }

    /** The page's HTML, with links to the given ports. */
    public byte[] render(int page, int[] ports) {
        SplittableRandom random = pageRandomTail(page);
        boolean brokenLink = random.nextInt(4) == 0;
        boolean externalLink = random.nextInt(4) == 0;
        int size = sizes.sample(random);
        int host = hostOf(page);
        List<Integer> targets = new ArrayList<>();
        for (long child = (long) page * branching + 1; child <= (long) page * branching + branching && child < pageCount;
             child++) {
            targets.add((int) child);
        }
        while (targets.size() < linksPerPage) {
            targets.add(random.nextInt(pageCount));
        }
        StringBuilder html = new StringBuilder(Math.max(size, 256) + 64);
        html.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Page ").append(page)
                .append("</title></head>\n<body><h1>Page ").append(page).append("</h1>\n<ul>\n");
        for (int target : targets) {
            html.append("<li><a href=\"").append(href(target, host, ports, random)).append("\">page ").append(target)
                    .append("</a></li>\n");
        }
        if (brokenLink) {
            html.append("<li><a href=\"/missing/").append(page).append(".html\">gone</a></li>\n");
        }
        if (externalLink) {
            html.append("<li><a href=\"http://example.com/").append(page).append("\">elsewhere</a></li>\n");
        }
        html.append("</ul>\n<p>");
        String tail = "</p>\n</body></html>\n";
        int fill = size - html.length() - tail.length();
        while (fill > 0) {
            int piece = Math.min(fill, FILLER.length());
            html.append(FILLER, 0, piece);
            fill -= piece;
        }
        html.append(tail);
        return html.toString().getBytes(StandardCharsets.UTF_8);
    }

    private String href(int target, int host, int[] ports, SplittableRandom random) {
        int targetHost = hostOf(target);
        if (targetHost != host) {
            String prefix = "http://127.0.0.1:" + ports[targetHost];
            return switch (random.nextInt(3)) {
                case 0 -> prefix + "/page/" + target + ".html#top";
                case 1 -> prefix + "/moved/" + target;
                default -> prefix + "/page/" + target + ".html";
            };
        }
        return switch (random.nextInt(5)) {
            case 0 -> "/page/" + target + ".html";
            case 1 -> target + ".html";
            case 2 -> "./" + target + ".html#part-2";
            case 3 -> "/moved/" + target;
            default -> "../page/./" + target + ".html";
        };
    }

    /** The page's generator, positioned after the draws that {@link #hostOf} and {@link #isChunked} make. */
    private SplittableRandom pageRandomTail(int page) {
        SplittableRandom random = random(page);
        random.nextInt(hostCount);
        random.nextInt(3);
        return random;
    }

    private SplittableRandom random(int page) {
        return new SplittableRandom(seed * 0x9E3779B97F4A7C15L + page * 0xBF58476D1CE4E5B9L + linksPerPage);
    }

    private static String filler() {
        String[] words = {"piranha", "crawls", "the", "synthetic", "web", "one", "thread", "per", "url", "while",
            "slow", "modems", "trickle", "bytes", "across", "many", "hosts", "and", "continuations", "capture"};
        SplittableRandom random = new SplittableRandom(1998);
        StringBuilder text = new StringBuilder(70_000);
        while (text.length() < 65_536) {
            text.append(words[random.nextInt(words.length)]).append(random.nextInt(12) == 0 ? ".\n" : " ");
        }
        return text.toString();
    }
}
