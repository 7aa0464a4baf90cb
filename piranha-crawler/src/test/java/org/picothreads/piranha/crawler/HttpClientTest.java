package org.picothreads.piranha.crawler;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.picothreads.piranha.web.PageSizes;
import org.picothreads.piranha.web.SyntheticWeb;
import org.picothreads.piranha.web.WebServer;

class HttpClientTest {

    private static final SyntheticWeb WEB = new SyntheticWeb(11, 60, 4, 2, PageSizes.parse("mix:1k,9k"));
    private static WebServer server;
    private static int[] ports;
    private final HttpClient client = new HttpClient(2_000, 5_000, 5);

    @BeforeAll
    static void startServer() throws IOException {
        server = WebServer.start(WEB, 0, 0);
        ports = server.ports();
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    private static int firstPage(boolean chunked) {
        for (int page = 0; page < WEB.pageCount(); page++) {
            if (WEB.isChunked(page) == chunked) {
                return page;
            }
        }
        throw new AssertionError("no page with chunked = " + chunked);
    }

    @Test
    void a_content_length_body_is_read_whole() throws IOException {
        int page = firstPage(false);
        HttpResponse response = client.get(WEB.pageUrl(page, ports));
        assertEquals(200, response.status());
        assertEquals(String.valueOf(response.body().length), response.headers().get("content-length"));
        assertArrayEquals(WEB.render(page, ports), response.body());
    }

    @Test
    void a_chunked_body_is_decoded() throws IOException {
        int page = firstPage(true);
        HttpResponse response = client.get(WEB.pageUrl(page, ports));
        assertEquals(200, response.status());
        assertEquals("chunked", response.headers().get("transfer-encoding"));
        assertArrayEquals(WEB.render(page, ports), response.body());
    }

    @Test
    void a_redirect_is_followed_to_the_page() throws IOException {
        String moved = "http://127.0.0.1:" + ports[WEB.hostOf(5)] + "/moved/5";
        HttpResponse response = client.get(moved);
        assertEquals(200, response.status());
        assertEquals(1, response.redirects());
        assertEquals(WEB.pageUrl(5, ports), response.finalUrl());
        assertArrayEquals(WEB.render(5, ports), response.body());
    }

    @Test
    void a_redirect_is_returned_as_it_is_when_none_may_be_followed() throws IOException {
        HttpResponse response = new HttpClient(2_000, 5_000, 0).get("http://127.0.0.1:" + ports[WEB.hostOf(5)]
                + "/moved/5");
        assertEquals(301, response.status());
        assertEquals("/page/5.html", response.headers().get("location"));
    }

    @Test
    void a_missing_page_is_a_404() throws IOException {
        assertEquals(404, client.get("http://127.0.0.1:" + ports[0] + "/missing/1.html").status());
    }

    @Test
    void a_page_asked_of_the_wrong_host_is_a_404() throws IOException {
        int page = 1;
        int wrongHost = 1 - WEB.hostOf(page);
        assertEquals(404, client.get("http://127.0.0.1:" + ports[wrongHost] + "/page/1.html").status());
    }

    @Test
    void a_response_slower_than_the_read_timeout_fails_with_a_timeout() throws IOException {
        try (WebServer slow = WebServer.start(WEB, 0, 3_000)) {
            HttpClient impatient = new HttpClient(2_000, 200, 0);
            long start = System.nanoTime();
            assertThrows(SocketTimeoutException.class, () -> impatient.get(slow.rootUrl()));
            assertTrue(System.nanoTime() - start < 2_500_000_000L, "the timeout came after the response's delay");
        }
    }

    @Test
    void a_port_nobody_listens_on_fails_to_connect() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        assertThrows(IOException.class, () -> client.get("http://127.0.0.1:" + closedPort + "/"));
    }
}
