package org.picothreads.transform;

/**
 * A class that cannot be transformed at all: unreadable, truncated, not a class file, or a hierarchy that
 * cannot be resolved. The message is one line that names the file and, where known, the class.
 */
public final class TransformException extends Exception {
    private static final long serialVersionUID = 1L;

    public TransformException(String message) {
        super(message);
    }

    public TransformException(String message, Throwable cause) {
        super(message, cause);
    }
}
