package org.picothreads.piranha.api;

/**
 * What a crawl may do.
 *
 * @param maxPages            the page budget: at most this many URLs are fetched
 * @param maxDepth            links are followed at most this many hops from the root
 * @param maxFetching         at most this many threads fetch at once (a parent waits to start a child)
 * @param perHostConnections  at most this many connections to one host and port at once
 * @param connectTimeoutMillis the connect timeout
 * @param readTimeoutMillis   the read timeout, for each read
 * @param maxRedirects        redirects followed for one URL
 * @param fetchOnly           read bodies without an HTML parser: links come from a byte scan for href attributes
 */
public record CrawlSettings(int maxPages, int maxDepth, int maxFetching, int perHostConnections,
                            int connectTimeoutMillis, int readTimeoutMillis, int maxRedirects, boolean fetchOnly) {

    /** Settings for a small crawl that may fetch everything: used by tests and as a base for the command line. */
    public static CrawlSettings unlimited() {
        return new CrawlSettings(Integer.MAX_VALUE, Integer.MAX_VALUE, 1000, 1000, 10_000, 30_000, 5, false);
    }

    /** The same settings with another page budget. */
    public CrawlSettings withMaxPages(int pages) {
        return new CrawlSettings(pages, maxDepth, maxFetching, perHostConnections, connectTimeoutMillis,
                readTimeoutMillis, maxRedirects, fetchOnly);
    }

    /** The same settings with another limit on concurrent fetches. */
    public CrawlSettings withMaxFetching(int fetching) {
        return new CrawlSettings(maxPages, maxDepth, fetching, perHostConnections, connectTimeoutMillis,
                readTimeoutMillis, maxRedirects, fetchOnly);
    }
}
