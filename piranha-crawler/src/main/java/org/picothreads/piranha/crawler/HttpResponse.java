package org.picothreads.piranha.crawler;

import java.util.Map;

/**
 * One HTTP response as the client read it.
 *
 * @param status   the status code
 * @param finalUrl the URL that answered, after redirects
 * @param headers  the header fields, names in lower case (the last value of a repeated field)
 * @param body     the body, decoded from chunked transfer coding when it was chunked
 * @param redirects how many redirects were followed to reach it
 */
public record HttpResponse(int status, String finalUrl, Map<String, String> headers, byte[] body, int redirects) {
}
