package org.picothreads.transform.io;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Checks that an output cannot overwrite the input it is written from, comparing paths with links resolved. */
public final class ContainerPaths {
    private ContainerPaths() {
    }

    /** Refuses an output that is the input, lies inside the input, or contains the input. */
    public static void requireSeparate(Path input, Path output) throws ContainerException {
        Path realInput = realPath(input);
        Path realOutput = realPath(output);
        if (realOutput.equals(realInput)) {
            throw new ContainerException("output is the same as the input: " + output);
        }
        if (realOutput.startsWith(realInput)) {
            throw new ContainerException("output " + output + " is inside the input " + input);
        }
        if (realInput.startsWith(realOutput)) {
            throw new ContainerException("input " + input + " is inside the output " + output);
        }
    }

    /** True when the two paths name the same file, once links are resolved; neither needs to exist. */
    public static boolean sameFile(Path first, Path second) throws ContainerException {
        return realPath(first).equals(realPath(second));
    }

    /**
     * The absolute, normalized path with links resolved as far as it exists: the real path of its longest
     * existing ancestor with the rest of it appended.
     */
    static Path realPath(Path path) throws ContainerException {
        Path absolute = path.toAbsolutePath().normalize();
        Path existing = absolute;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null) {
            return absolute;
        }
        try {
            return existing.toRealPath().resolve(existing.relativize(absolute));
        } catch (IOException failure) {
            throw ContainerException.of("cannot resolve", path, failure);
        }
    }
}
