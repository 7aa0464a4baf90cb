package org.picothreads.piranha.crawler;

import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import org.picothreads.piranha.api.Crawl;
import org.picothreads.piranha.api.CrawlCounters;
import org.picothreads.piranha.api.CrawlSettings;
import org.picothreads.piranha.api.Spawner;

/**
 * One crawl: the URLs claimed so far, the page budget, the limits on concurrent fetches, and the HTTP client. Each
 * URL is crawled by a {@link Piranha} task that the spawner starts; with no spawner given, a new thread per URL.
 */
public final class PiranhaCrawl implements Crawl {

    private final CrawlSettings settings;
    private final CrawlCounters counters;
    /** Starts the tasks in pool and virtual mode; null for the paper's new thread per URL. */
    private final Spawner spawner;
    private final HttpClient client;
    /** Canonical URLs already given to a task (or refused by the budget): each is fetched at most once. */
    private final Set<String> claimed = ConcurrentHashMap.newKeySet();
    /** URLs that may still be claimed under the page budget. */
    private final AtomicInteger remainingBudget;
    /** One permit per thread allowed to fetch at once. */
    private final Semaphore fetchSlots;
    /** One semaphore per host and port, a permit per connection allowed to it. */
    private final Map<String, Semaphore> hostSlots = new ConcurrentHashMap<>();
    private volatile boolean stopped;

    /** A crawl that starts a thread per URL. */
    public PiranhaCrawl(CrawlSettings settings, CrawlCounters counters) {
        this(settings, counters, null);
    }

    /** A crawl whose tasks the spawner starts; a null spawner means a new thread per URL. */
    public PiranhaCrawl(CrawlSettings settings, CrawlCounters counters, Spawner spawner) {
        this.settings = settings;
        this.counters = counters;
        this.spawner = spawner;
        this.client = new HttpClient(settings.connectTimeoutMillis(), settings.readTimeoutMillis(),
                settings.maxRedirects());
        this.remainingBudget = new AtomicInteger(settings.maxPages());
        this.fetchSlots = new Semaphore(settings.maxFetching());
    }

    @Override
    public void start(String rootUrl) {
        String root = UrlNormalizer.normalize(rootUrl);
        if (root == null || !UrlNormalizer.isLoopback(root)) {
            throw new IllegalArgumentException("Piranha crawls http://127.0.0.1 URLs only, not " + rootUrl);
        }
        counters.taskSpawned();
        try {
            if (claim(root)) {
                spawn(root, 0);
            }
        } finally {
            counters.taskFinished();
        }
    }

    @Override
    public void stop() {
        stopped = true;
        client.closeAll();
    }

    CrawlSettings settings() {
        return settings;
    }

    CrawlCounters counters() {
        return counters;
    }

    /** Claims a URL for crawling: true once for each new loopback URL, while the budget lasts. */
    boolean claim(String url) {
        return !stopped && UrlNormalizer.isLoopback(url) && claimed.add(url) && remainingBudget.getAndDecrement() > 0;
    }

    /** Starts a task for the URL once a fetch slot is free; the slot is the task's until its fetch ends. */
    void spawn(String url, int depth) {
        try {
            fetchSlots.acquire();
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return;
        }
        if (stopped) {
            fetchSlots.release();
            return;
        }
        counters.taskSpawned();
        Piranha task = new Piranha(this, url, depth);
        if (spawner == null) {
            Thread thread = new Thread(task);
            thread.setDaemon(true);
            thread.start();
        } else if (!spawner.start(task)) {
            fetchSlots.release();
            counters.taskDiscarded();
        }
    }

    void releaseFetchSlot() {
        fetchSlots.release();
    }

    /** Fetches the URL under its host's connection limit and returns its links; failures count as errors. */
    List<String> fetchLinks(String url) {
        if (stopped) {
            return List.of();
        }
        URI uri = URI.create(url);
        Semaphore host = hostSlots.computeIfAbsent(uri.getHost() + ":" + uri.getPort(),
                key -> new Semaphore(settings.perHostConnections()));
        HttpResponse response;
        try {
            host.acquire();
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            counters.fetchFailed();
            return List.of();
        }
        try {
            response = client.get(url);
        } catch (IOException | RuntimeException failure) {
            counters.fetchFailed();
            return List.of();
        } finally {
            host.release();
        }
        if (response.status() != 200) {
            counters.fetchFailed();
            return List.of();
        }
        claimed.add(response.finalUrl());
        if (!counters.pageFetched(response.finalUrl(), response.body().length)) {
            return List.of();
        }
        return settings.fetchOnly()
                ? LinkExtractor.scannedLinks(response.body(), response.finalUrl())
                : LinkExtractor.links(response.body(), response.finalUrl());
    }
}
