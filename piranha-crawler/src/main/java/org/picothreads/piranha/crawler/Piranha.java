package org.picothreads.piranha.crawler;

import java.util.List;

/** The crawl of one URL, the paper's {@code Piranha implements Runnable}: fetch it, then start a thread per new link. */
final class Piranha implements Runnable {

    private final PiranhaCrawl crawl;
    private final String url;
    /** Links followed from the root to reach this URL. */
    private final int depth;

    Piranha(PiranhaCrawl crawl, String url, int depth) {
        this.crawl = crawl;
        this.url = url;
        this.depth = depth;
    }

    @Override
    public void run() {
        crawl.counters().threadStarted();
        try {
            List<String> links;
            try {
                links = crawl.fetchLinks(url);
            } finally {
                crawl.releaseFetchSlot();
            }
            if (depth < crawl.settings().maxDepth()) {
                for (String link : links) {
                    if (crawl.claim(link)) {
                        crawl.spawn(link, depth + 1);
                    }
                }
            }
        } finally {
            crawl.counters().threadEnded();
            crawl.counters().taskFinished();
        }
    }
}
