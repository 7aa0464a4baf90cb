package org.picothreads.net.io;

import java.util.ArrayList;
import java.util.List;

/**
 * Collects the pieces a Formatter appends, so that a print writer or stream can then write them one by one as the
 * JDK's Formatter would have (the same writes, flushes and errors) from its own frame instead of the Formatter's.
 */
final class FormattedText implements Appendable {
    private final List<String> pieces = new ArrayList<>();

    @Override
    public Appendable append(CharSequence text) {
        pieces.add(String.valueOf(text));
        return this;
    }

    @Override
    public Appendable append(CharSequence text, int start, int end) {
        CharSequence source = text == null ? "null" : text;
        pieces.add(source.subSequence(start, end).toString());
        return this;
    }

    @Override
    public Appendable append(char character) {
        pieces.add(String.valueOf(character));
        return this;
    }

    /** The appended pieces, in order. */
    List<String> pieces() {
        return pieces;
    }
}
