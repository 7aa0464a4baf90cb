package org.picothreads.maven;

import java.nio.file.Path;

/**
 * A dependency whose classes are unpacked into the classes directory and rewritten with the project's.
 *
 * @param coordinate {@code groupId:artifactId}
 * @param file       its jar, or its classes directory when it comes from the same reactor
 */
record DependencyToRewrite(String coordinate, Path file) {
}
