package org.picothreads.piranha;

import java.util.List;
import java.util.Locale;
import org.picothreads.piranha.web.PageSizes;
import org.picothreads.piranha.web.SyntheticWeb;

/**
 * The synthetic web a comparison crawls, and how it is served: what a web server in another JVM is started with.
 *
 * @param seed       the web's seed
 * @param pages      its pages
 * @param links      links per page
 * @param hosts      virtual hosts (ports)
 * @param pageSize   the page size distribution, as written on the command line
 * @param rate       each connection's bytes per second, 0 for no limit
 * @param latency    milliseconds before each response
 */
record WebSpec(long seed, int pages, int links, int hosts, String pageSize, long rate, long latency) {

    /** The same web with another page size distribution. */
    WebSpec withPageSize(String sizes) {
        return new WebSpec(seed, pages, links, hosts, sizes, rate, latency);
    }

    /** The web itself, as the server generates it (the tests and figures compare a crawl with it). */
    SyntheticWeb web() {
        return new SyntheticWeb(seed, pages, links, hosts, PageSizes.parse(pageSize));
    }

    /** The options of {@code piranha --serve} that serve this web. */
    List<String> serveArguments() {
        return List.of("--serve", "--pages", Integer.toString(pages), "--seed", Long.toString(seed), "--links",
                Integer.toString(links), "--hosts", Integer.toString(hosts), "--page-size", pageSize, "--rate",
                Long.toString(rate), "--latency", Long.toString(latency));
    }

    /** One line for a chart's title. */
    String describe() {
        return String.format(Locale.ROOT, "%d pages of %s, %s per connection, %d ms latency", pages, pageSize,
                rate == 0 ? "unthrottled" : rate + " B/s", latency);
    }
}
