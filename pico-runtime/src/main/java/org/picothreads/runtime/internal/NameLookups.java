package org.picothreads.runtime.internal;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * Where rewritten calls of InetAddress's name lookups go: on a PicoThread a lookup of a host name runs on the
 * {@link Offloads} pool while only the calling PicoThread waits; a literal address, and every call on a platform
 * thread, is answered by the JDK in place.
 */
public final class NameLookups {
    private NameLookups() {
    }

    /** {@code InetAddress.getByName(host)}. */
    public static InetAddress getByName(String host) throws UnknownHostException {
        if (answeredInPlace(host)) {
            return InetAddress.getByName(host);
        }
        return lookUp(() -> InetAddress.getByName(host));
    }

    /** {@code InetAddress.getAllByName(host)}. */
    public static InetAddress[] getAllByName(String host) throws UnknownHostException {
        if (answeredInPlace(host)) {
            return InetAddress.getAllByName(host);
        }
        return lookUp(() -> InetAddress.getAllByName(host));
    }

    /** {@code InetAddress.getLocalHost()}. */
    public static InetAddress getLocalHost() throws UnknownHostException {
        if (!Parking.onPicoThread()) {
            return InetAddress.getLocalHost();
        }
        return lookUp(InetAddress::getLocalHost);
    }

    /**
     * True when the JDK answers without a lookup (a literal or missing host) or the caller is a platform thread:
     * when {@link #getByName} would not suspend.
     */
    public static boolean answeredInPlace(String host) {
        return !Parking.onPicoThread() || host == null || host.isEmpty() || isLiteral(host);
    }

    /** True for a literal IPv4 address (digits and dots) or IPv6 address (with a colon, or in brackets). */
    static boolean isLiteral(String host) {
        if (host.charAt(0) == '[' || host.indexOf(':') >= 0) {
            return true;
        }
        for (int index = 0; index < host.length(); index++) {
            char character = host.charAt(index);
            if (character != '.' && (character < '0' || character > '9')) {
                return false;
            }
        }
        return true;
    }

    /** A lookup that can fail only as the JDK's do, run through the pool. */
    private interface Lookup<T> extends java.util.concurrent.Callable<T> {
        @Override
        T call() throws UnknownHostException;
    }

    private static <T> T lookUp(Lookup<T> lookup) throws UnknownHostException {
        try {
            return Offloads.call(lookup);
        } catch (UnknownHostException | RuntimeException failure) {
            throw failure;
        } catch (Exception impossible) {
            throw new IllegalStateException(impossible);
        }
    }
}
