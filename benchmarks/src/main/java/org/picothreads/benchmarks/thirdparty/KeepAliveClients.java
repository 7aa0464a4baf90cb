package org.picothreads.benchmarks.thirdparty;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * Concurrent HTTP/1.1 keep-alive clients of the third-party server, each a virtual thread with one connection to
 * 127.0.0.1 making one request at a time, client {@code i}'s request {@code j} asking for path
 * {@code (i + j) mod paths}. Every response is checked: its status code and its body, byte for byte, against
 * {@link ServedFiles}; the first wrong or missing response fails the run. Clients never stay idle for a second:
 * NanoHTTPD closes a connection idle for five seconds.
 */
public final class KeepAliveClients {
    /** What a client waiting for the others asks for every second, so that the server does not close it. */
    private static final String KEEP_BUSY_PATH = "/notes.txt";
    /** How long a client waits for its connect or for a response before the run fails. */
    private static final int TIMEOUT_MILLIS = 60_000;
    /**
     * Clients connecting at once, each until its first response: below NanoHTTPD's accept backlog (50, the JDK's
     * default), so that no handshake is dropped and retried with the kernel's growing back-off.
     */
    private static final int CONNECTING_AT_ONCE = 32;

    private final int port;
    private final ServedFiles files;
    private final List<String> paths;
    private final int clients;
    /** Counted down by each client once connected and answered once (or failed). */
    private final CountDownLatch allConnected;
    /** Permits to connect; a client gives its permit back with its first response. */
    private final Semaphore connecting = new Semaphore(CONNECTING_AT_ONCE);
    /** Opened once every client is connected, when clients wait for each other; null when they do not. */
    private final CountDownLatch go;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    /** Checked responses received. */
    private final LongAdder responses = new LongAdder();
    private volatile boolean stop;

    private KeepAliveClients(int port, ServedFiles files, int clients, boolean waitForAll) {
        this.go = waitForAll ? new CountDownLatch(1) : null;
        this.port = port;
        this.files = files;
        this.paths = files.paths();
        this.clients = clients;
        this.allConnected = new CountDownLatch(clients);
    }

    /** Requests per second over a measured window, with the work behind it. */
    public record Measurement(long responses, double seconds) {
        public double requestsPerSecond() {
            return responses / seconds;
        }
    }

    /**
     * {@code clients} clients each make {@code requests} requests, all connections open at once: after its first
     * response each client waits until every client has had one (keeping its connection busy with a checked
     * request for {@value #KEEP_BUSY_PATH} every second meanwhile, left out of its transcript), then
     * {@code whileAllConnected} runs, then the clients go on. Returns each client's transcript: per response, the
     * path, the status line, the headers but Date, and the body's SHA-256.
     */
    public static List<List<String>> transcripts(int port, ServedFiles files, int clients, int requests,
            Runnable whileAllConnected) throws Exception {
        KeepAliveClients run = new KeepAliveClients(port, files, clients, true);
        List<List<String>> transcripts = new ArrayList<>();
        for (int client = 0; client < clients; client++) {
            transcripts.add(new ArrayList<>());
        }
        List<Thread> threads = new ArrayList<>();
        for (int client = 0; client < clients; client++) {
            int index = client;
            threads.add(Thread.ofVirtual().start(() -> run.client(index, requests, transcripts.get(index))));
        }
        try {
            run.awaitConnected();
            whileAllConnected.run();
        } finally {
            run.go.countDown();
        }
        run.join(threads);
        return transcripts;
    }

    /** What runs at the start, in the middle and at the end of the measured window (samples of the server). */
    public interface Window {
        void started();

        void middle();

        void ended();
    }

    /**
     * {@code clients} clients request as fast as they are answered for {@code warmup}, then for
     * {@code measurement}, counted; {@code window} hears when the measured window starts, reaches its middle and
     * ends.
     */
    public static Measurement measure(int port, ServedFiles files, int clients, Duration warmup, Duration measurement,
            Window window) throws Exception {
        KeepAliveClients run = new KeepAliveClients(port, files, clients, false);
        List<Thread> threads = new ArrayList<>();
        for (int client = 0; client < clients; client++) {
            int index = client;
            threads.add(Thread.ofVirtual().start(() -> run.client(index, Integer.MAX_VALUE, null)));
        }
        run.awaitConnected();
        Measurement result;
        try {
            Thread.sleep(warmup);
            window.started();
            long startCount = run.responses.sum();
            long start = System.nanoTime();
            Thread.sleep(measurement.dividedBy(2));
            window.middle();
            Thread.sleep(measurement.dividedBy(2));
            long count = run.responses.sum() - startCount;
            result = new Measurement(count, (System.nanoTime() - start) / 1e9);
            window.ended();
        } finally {
            run.stop = true;
        }
        run.join(threads);
        return result;
    }

    private void awaitConnected() throws InterruptedException {
        if (!allConnected.await(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)) {
            stop = true;
            throw new IllegalStateException("the " + clients + " clients did not all connect within "
                    + TIMEOUT_MILLIS + " ms; first failure: " + failure.get());
        }
        Throwable thrown = failure.get();
        if (thrown != null) {
            stop = true;
            throw new IllegalStateException("a client failed", thrown);
        }
    }

    private void join(List<Thread> threads) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(2L * TIMEOUT_MILLIS);
        for (Thread thread : threads) {
            long left = deadline - System.nanoTime();
            if (left <= 0 || !thread.join(Duration.ofNanos(left))) {
                stop = true;
                throw new IllegalStateException("a client did not finish in time; first failure: " + failure.get());
            }
        }
        Throwable thrown = failure.get();
        if (thrown != null) {
            throw new IllegalStateException("a client failed", thrown);
        }
    }

    /** One client: connect, then {@code requests} requests or until stopped; {@code transcript} may be null. */
    private void client(int index, int requests, List<String> transcript) {
        boolean counted = false;
        try {
            connecting.acquire();
        } catch (InterruptedException e) {
            failure.compareAndSet(null, e);
            allConnected.countDown();
            return;
        }
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), TIMEOUT_MILLIS);
            socket.setSoTimeout(TIMEOUT_MILLIS);
            socket.setTcpNoDelay(true);
            InputStream input = new BufferedInputStream(socket.getInputStream(), 16_384);
            OutputStream output = socket.getOutputStream();
            for (int request = 0; request < requests && !stop && failure.get() == null; request++) {
                String path = paths.get((index + request) % paths.size());
                HttpResponse response = ask(output, input, path);
                check(index, request, path, response);
                responses.increment();
                if (transcript != null) {
                    transcript.add(path + " | " + response.statusLine() + " | " + response.headersWithoutDate()
                            + " | " + sha256(response.body()));
                }
                if (request == 0) {
                    counted = true;
                    connecting.release();
                    allConnected.countDown();
                    while (go != null && !go.await(1, TimeUnit.SECONDS) && !stop) {
                        check(index, -1, KEEP_BUSY_PATH, ask(output, input, KEEP_BUSY_PATH));
                    }
                }
            }
        } catch (Throwable e) {
            failure.compareAndSet(null, new IOException("client " + index + ": " + e, e));
        } finally {
            if (!counted) {
                connecting.release();
                allConnected.countDown();
            }
        }
    }

    private static HttpResponse ask(OutputStream output, InputStream input, String path) throws IOException {
        output.write(HttpResponse.request(path));
        output.flush();
        return HttpResponse.read(input);
    }

    private void check(int index, int request, String path, HttpResponse response) throws IOException {
        if (response.status() != files.status(path)) {
            throw new IOException("client " + index + " request " + request + " for " + path + ": status line "
                    + response.statusLine() + ", expected " + files.status(path));
        }
        if (!Arrays.equals(response.body(), files.body(path))) {
            throw new IOException("client " + index + " request " + request + " for " + path + ": a body of "
                    + response.body().length + " bytes differs from the expected " + files.body(path).length);
        }
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
