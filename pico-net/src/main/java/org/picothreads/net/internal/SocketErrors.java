package org.picothreads.net.internal;

import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.SocketOption;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NetworkChannel;

/**
 * Turns the exceptions of java.nio channels into the ones java.net's sockets throw for the same event, with the
 * same types and messages (refused, reset, closed).
 */
public final class SocketErrors {
    private SocketErrors() {
    }

    /** The exception java.net throws for a failure of a read, write or accept on a socket. */
    public static IOException ofTransfer(IOException failure) {
        if (failure instanceof ClosedChannelException || failure instanceof AsynchronousCloseException) {
            return new SocketException("Socket closed");
        }
        String message = failure.getMessage();
        if (message != null && message.contains("reset")) {
            return new SocketException("Connection reset");
        }
        if (failure instanceof SocketException && failure.getClass() == SocketException.class) {
            return failure;
        }
        SocketException translated = new SocketException(message);
        translated.initCause(failure);
        return translated;
    }

    /** The exception java.net throws for a failed connect. */
    public static IOException ofConnect(IOException failure) {
        if (failure instanceof ClosedChannelException || failure instanceof AsynchronousCloseException) {
            return new SocketException("Socket closed");
        }
        if (failure instanceof ConnectException) {
            String message = failure.getMessage();
            return new ConnectException(message != null && message.startsWith("Connection refused")
                    ? "Connection refused" : message);
        }
        return failure;
    }

    /** A failure of a socket option or operation as the SocketException java.net would throw, keeping the cause. */
    public static java.net.SocketException asSocketException(IOException failure) {
        if (failure instanceof java.net.SocketException) {
            return (java.net.SocketException) failure;
        }
        java.net.SocketException converted = new java.net.SocketException(failure.getMessage());
        converted.initCause(failure);
        return converted;
    }

    /** {@code channel.setOption(name, value)}, failing with the SocketException java.net's sockets throw. */
    public static <T> void setOption(NetworkChannel channel, SocketOption<T> name, T value) throws SocketException {
        try {
            channel.setOption(name, value);
        } catch (IOException e) {
            throw asSocketException(e);
        }
    }

    /** {@code channel.getOption(name)}, failing with the SocketException java.net's sockets throw. */
    public static <T> T getOption(NetworkChannel channel, SocketOption<T> name) throws SocketException {
        try {
            return channel.getOption(name);
        } catch (IOException e) {
            throw asSocketException(e);
        }
    }
}
