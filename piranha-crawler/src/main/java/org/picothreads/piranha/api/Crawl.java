package org.picothreads.piranha.api;

/** One crawl of a web from a root URL, as the driver sees it; the crawler package implements it. */
public interface Crawl {

    /** Starts crawling from the root URL; returns at once, and the counters report the end. */
    void start(String rootUrl);

    /** Stops the crawl: no new fetches start, and the connections open now are closed. */
    void stop();
}
