package org.picothreads.benchmarks.thirdparty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 4's check, bounded for the test command: NanoHTTPD's published jars, rewritten with the pico-transform CLI
 * as a user would, serve a few hundred concurrent keep-alive clients from a child JVM on PicoThreads, and every
 * response is the one the unrewritten jars give on platform threads, body byte for byte. The measuring run with
 * a thousand clients is {@link ThirdPartyServerHarness}.
 */
class ThirdPartyServerTest {
    private static final int CLIENTS = 300;
    private static final int REQUESTS_PER_CLIENT = 6;
    /** Platform threads a JVM has besides its application's: GC, JIT, the carrier, the output reader... */
    private static final int FEW_THREADS = 60;

    @Test
    @Timeout(240)
    void nanohttpd_rewritten_by_the_cli_serves_keep_alive_clients_on_picothreads_exactly_as_on_platform_threads(
            @TempDir Path temporary) throws Exception {
        Path jars = Path.of(System.getProperty("picothreads.thirdPartyJars"));
        List<Path> published = ThirdPartyServer.publishedJars(jars);
        List<Path> rewritten = ThirdPartyServer.rewrite(published, temporary.resolve("rewritten"));
        // The core (accept loop, keep-alive session, response writing) has no pinned call site; the web server's
        // three are main handing the server to ServerRunner (main is a platform thread) and the resource read of
        // the MIME table in SimpleWebServer's class initializer.
        assertEquals(0, ThirdPartyServer.pinnedCallSites(ThirdPartyServer.reportOf(rewritten.get(0))));
        assertEquals(3, ThirdPartyServer.pinnedCallSites(ThirdPartyServer.reportOf(rewritten.get(1))));
        ServedFiles files = ServedFiles.generate(temporary.resolve("www"));
        List<Path> picoClassPath = new ArrayList<>(rewritten);
        picoClassPath.addAll(ThirdPartyServer.picoLibraries());

        AtomicInteger platformThreads = new AtomicInteger();
        List<List<String>> onPlatformThreads = serve(published, files, platformThreads);
        AtomicInteger picoServerThreads = new AtomicInteger();
        List<List<String>> onPicoThreads = serve(picoClassPath, files, picoServerThreads);

        System.out.println("server JVM threads with " + CLIENTS + " connections open: " + platformThreads
                + " unrewritten, " + picoServerThreads + " on PicoThreads");
        assertEquals(CLIENTS, onPicoThreads.size());
        int notFound = 0;
        for (List<String> transcript : onPicoThreads) {
            assertEquals(REQUESTS_PER_CLIENT, transcript.size());
            for (String response : transcript) {
                notFound += response.startsWith(ServedFiles.MISSING_PATH) ? 1 : 0;
            }
        }
        assertTrue(notFound > 0, "no request for the missing path");
        assertEquals(onPlatformThreads, onPicoThreads, "the rewritten server answered differently");
        if (Files.isDirectory(Path.of("/proc/self"))) {
            assertTrue(platformThreads.get() > CLIENTS, "the unrewritten server should hold a thread per connection,"
                    + " had " + platformThreads + " threads with " + CLIENTS + " connections open");
            assertTrue(picoServerThreads.get() < FEW_THREADS, "the rewritten server had " + picoServerThreads
                    + " threads with " + CLIENTS + " connections open: not running on PicoThreads");
        }
    }

    /**
     * Runs the clients against the server on {@code classPath}; {@code threads} gets its thread count while all
     * the connections are open.
     */
    private static List<List<String>> serve(List<Path> classPath, ServedFiles files, AtomicInteger threads)
            throws Exception {
        try (ThirdPartyServer server = ThirdPartyServer.start(classPath, files.directory(), List.of("-Xmx256m"))) {
            return KeepAliveClients.transcripts(server.port(), files, CLIENTS, REQUESTS_PER_CLIENT, () -> {
                try {
                    threads.set(server.liveKernelThreads());
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
