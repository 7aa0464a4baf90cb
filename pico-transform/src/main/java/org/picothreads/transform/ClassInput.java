package org.picothreads.transform;

import java.util.Objects;

/**
 * One class file handed to the transformer.
 *
 * @param source where the bytes came from, for messages: a file path, or {@code archive.jar!/entry/Name.class}
 * @param bytes  the class file
 */
public record ClassInput(String source, byte[] bytes) {
    public ClassInput {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(bytes, "bytes");
    }
}
