package org.picothreads.piranha.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.picothreads.piranha.crawler.HttpClient;
import org.picothreads.piranha.crawler.HttpResponse;

class WebServerThrottlingTest {

    @Test
    void a_20_kilobyte_page_at_20_kilobytes_per_second_takes_most_of_a_second() throws Exception {
        SyntheticWeb web = new SyntheticWeb(5, 1, 1, 1, PageSizes.parse("20k"));
        try (WebServer server = WebServer.start(web, 20_480, 0)) {
            HttpClient client = new HttpClient(5_000, 10_000, 0);
            long start = System.nanoTime();
            HttpResponse response = client.get(server.rootUrl());
            double seconds = (System.nanoTime() - start) / 1e9;
            assertEquals(200, response.status());
            assertEquals(20_480, response.body().length);
            // the bucket starts with a quarter second of tokens, so the last 15 KB take at least 0.75 s
            assertTrue(seconds >= 0.7, "took " + seconds + " s");
        }
    }

    @Test
    void the_added_latency_delays_the_first_byte() throws Exception {
        SyntheticWeb web = new SyntheticWeb(5, 1, 1, 1, PageSizes.parse("1k"));
        try (WebServer server = WebServer.start(web, 0, 400)) {
            HttpClient client = new HttpClient(5_000, 10_000, 0);
            long start = System.nanoTime();
            assertEquals(200, client.get(server.rootUrl()).status());
            double seconds = (System.nanoTime() - start) / 1e9;
            assertTrue(seconds >= 0.39, "took " + seconds + " s");
        }
    }

    @Test
    void the_server_holds_two_thousand_slow_connections_at_once() throws Exception {
        SyntheticWeb web = new SyntheticWeb(5, 1, 1, 1, PageSizes.parse("1k"));
        try (WebServer server = WebServer.start(web, 100, 0)) {
            java.util.List<java.nio.channels.SocketChannel> clients = new java.util.ArrayList<>();
            try {
                java.net.InetSocketAddress address = new java.net.InetSocketAddress("127.0.0.1", server.ports()[0]);
                for (int index = 0; index < 2000; index++) {
                    java.nio.channels.SocketChannel channel = java.nio.channels.SocketChannel.open(address);
                    channel.write(java.nio.ByteBuffer.wrap("GET /page/0.html HTTP/1.1\r\nHost: x\r\n\r\n"
                            .getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
                    clients.add(channel);
                }
                long deadline = System.nanoTime() + 10_000_000_000L;
                while (server.requests() < 2000 && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                }
                assertEquals(2000, server.requests());
                assertEquals(2000, server.openConnections());
            } finally {
                for (java.nio.channels.SocketChannel channel : clients) {
                    channel.close();
                }
            }
        }
    }
}
