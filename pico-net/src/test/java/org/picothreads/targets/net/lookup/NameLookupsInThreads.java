package org.picothreads.targets.net.lookup;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import org.picothreads.runtime.PicoThreads;

/** Fifty threads resolve "localhost" and "127.0.0.1" and offload a computation, and the answers are summarised. */
public class NameLookupsInThreads {
    private static final int THREADS = 50;

    public static String run() throws Exception {
        String[] answers = new String[THREADS];
        Thread[] threads = new Thread[THREADS];
        for (int index = 0; index < THREADS; index++) {
            int number = index;
            threads[index] = new Thread(() -> answers[number] = resolve(number), "resolver-client-" + index);
            threads[index].start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        Map<String, Integer> counts = new TreeMap<>();
        for (String answer : answers) {
            counts.merge(answer.replaceAll("offloaded [0-9]+", "offloaded N"), 1, Integer::sum);
        }
        long offloadsCorrect = 0;
        for (int index = 0; index < THREADS; index++) {
            if (answers[index].contains("offloaded " + (index * index) + ",")) {
                offloadsCorrect++;
            }
        }
        return counts + "; correct offloads " + offloadsCorrect + "; local host " + localHost();
    }

    private static String resolve(int number) {
        try {
            InetAddress byName = InetAddress.getByName("localhost");
            String[] all = Arrays.stream(InetAddress.getAllByName("localhost"))
                    .map(InetAddress::getHostAddress).sorted().toArray(String[]::new);
            InetAddress literal = InetAddress.getByName("127.0.0.1");
            // The offloaded call takes a moment, so that each thread waits for it (suspends) however quickly the
            // resolver pool answers the lookups, which the JDK's cache may answer before the caller parks.
            int square = PicoThreads.offload(() -> {
                Thread.sleep(2);
                return number * number;
            });
            String failure;
            try {
                PicoThreads.offload(() -> {
                    throw new IOException("disk " + number + " unreadable");
                });
                failure = "no failure";
            } catch (IOException expected) {
                failure = expected.getMessage().replace(" " + number + " ", " K ");
            }
            return "localhost " + byName.getHostName() + "/" + byName.getHostAddress() + ", all "
                    + Arrays.toString(all) + ", literal " + literal.getHostAddress() + " loopback "
                    + literal.isLoopbackAddress() + ", offloaded " + square + ", " + failure;
        } catch (Exception e) {
            return "failed: " + e;
        }
    }

    private static String localHost() {
        try {
            return InetAddress.getLocalHost() != null ? "resolved" : "null";
        } catch (UnknownHostException e) {
            return "unknown";
        }
    }
}
