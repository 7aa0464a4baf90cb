package org.picothreads.transform.testing;

import java.util.Map;

/**
 * Defines class files that a test generated in memory, as they are: the untransformed counterpart of
 * {@link TransformingClassLoader#forClasses} for those classes. Everything else comes from the parent.
 */
public final class GeneratedClassLoader extends ClassLoader {
    /** The class files this loader defines, by binary name. */
    private final Map<String, byte[]> classFiles;

    /** @param classFiles class files by binary name */
    public GeneratedClassLoader(Map<String, byte[]> classFiles) {
        super("generated-untransformed", GeneratedClassLoader.class.getClassLoader());
        this.classFiles = Map.copyOf(classFiles);
    }

    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
        byte[] bytes = classFiles.get(name);
        if (bytes == null) {
            throw new ClassNotFoundException(name);
        }
        return defineClass(name, bytes, 0, bytes.length);
    }
}
