package org.picothreads.transform;

import java.nio.file.Path;
import java.util.List;

/**
 * The one entry point to the transformer: rewrites a set of classes so that the threads they start are
 * PicoThreads. The command line, the Maven plugin and the agent are thin wrappers around it.
 */
public final class PicoTransformer {
    private final List<Path> classpath;

    private PicoTransformer(List<Path> classpath) {
        this.classpath = List.copyOf(classpath);
    }

    /**
     * A transformer that resolves the classes the input refers to (for the class hierarchy) from the given
     * jars and directories, then from the running JDK. Classes are read as files, never loaded.
     */
    public static PicoTransformer withClasspath(List<Path> classpath) throws TransformException {
        return new PicoTransformer(classpath);
    }

    /** Transforms the classes together: which methods can block is decided across all of them. */
    public TransformResult transform(List<ClassInput> inputs) throws TransformException {
        throw new TransformException("not yet implemented");
    }

    /** True when the class file was already rewritten by PicoThreads. */
    public static boolean isTransformed(byte[] classFile) {
        return false;
    }
}
