package org.picothreads.benchmarks.thirdparty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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

        Peak onPlatform = new Peak();
        List<List<String>> onPlatformThreads = serve(published, files, onPlatform);
        Peak onPico = new Peak();
        List<List<String>> onPicoThreads = serve(picoClassPath, files, onPico);

        System.out.println("peak on platform threads: " + onPlatform + "; on PicoThreads: " + onPico);
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
            assertTrue(onPlatform.threads > onPlatform.connections && onPlatform.connections >= CLIENTS / 3,
                    "the unrewritten server should hold a thread per connection: " + onPlatform);
            assertTrue(onPico.connections >= CLIENTS / 3, "too few connections open at once to tell: " + onPico);
            assertTrue(onPico.threads < FEW_THREADS, "the rewritten server is not running on PicoThreads: " + onPico);
        }
    }

    /** The sample with the most client connections open, and the server's platform threads then. */
    private static final class Peak {
        int connections = -1;
        int threads;

        synchronized void sample(int open, int serverThreads) {
            if (open > connections) {
                connections = open;
                threads = serverThreads;
            }
        }

        @Override
        public synchronized String toString() {
            return connections + " connections open, " + threads + " server JVM threads";
        }
    }

    /** Runs the clients against the server on {@code classPath}, sampling its threads into {@code peak}. */
    private static List<List<String>> serve(List<Path> classPath, ServedFiles files, Peak peak) throws Exception {
        try (ThirdPartyServer server = ThirdPartyServer.start(classPath, files.directory(), List.of("-Xmx256m"))) {
            return KeepAliveClients.transcripts(server.port(), files, CLIENTS, REQUESTS_PER_CLIENT, open -> {
                try {
                    peak.sample(open, server.liveKernelThreads());
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
