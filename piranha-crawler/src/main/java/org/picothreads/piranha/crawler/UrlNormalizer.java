package org.picothreads.piranha.crawler;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/** Puts http URLs in one canonical form, so that two spellings of one page are crawled once. */
public final class UrlNormalizer {

    private UrlNormalizer() {
    }

    /**
     * The canonical form of an absolute URL: scheme and host in lower case, no default port, no fragment, dot
     * segments resolved, an empty path written {@code /}.
     *
     * @return the canonical URL, or null if it is not an absolute http URL
     */
    public static String normalize(String absoluteUrl) {
        URI uri;
        try {
            uri = new URI(absoluteUrl.trim());
        } catch (URISyntaxException malformed) {
            return null;
        }
        if (uri.getScheme() == null || !uri.getScheme().equalsIgnoreCase("http") || uri.getHost() == null) {
            return null;
        }
        String host = uri.getHost().toLowerCase(Locale.ROOT);
        int port = uri.getPort() == 80 ? -1 : uri.getPort();
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        try {
            URI canonical = new URI("http", null, host, port, "/", null, null);
            String base = canonical.toString();
            String normalizedPath = URI.create("http://x" + path).normalize().getRawPath();
            if (normalizedPath.startsWith("/..")) {
                normalizedPath = "/";
            }
            String query = uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery();
            return base.substring(0, base.length() - 1) + normalizedPath + query;
        } catch (URISyntaxException | IllegalArgumentException malformed) {
            return null;
        }
    }

    /** Whether a canonical URL points at this machine's loopback address, the only one Piranha fetches from. */
    public static boolean isLoopback(String canonicalUrl) {
        return canonicalUrl.startsWith("http://127.0.0.1/") || canonicalUrl.startsWith("http://127.0.0.1:");
    }
}
