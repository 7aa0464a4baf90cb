package org.picothreads.transform.cli;

/** A run refused before anything was written, for a reason given in one line. */
final class RefusedException extends Exception {
    private static final long serialVersionUID = 1L;

    RefusedException(String message) {
        super(message);
    }
}
