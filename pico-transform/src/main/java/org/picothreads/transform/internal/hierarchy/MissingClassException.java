package org.picothreads.transform.internal.hierarchy;

/** A class the hierarchy needed but found neither among the inputs, on the classpath, nor in the JDK. */
public final class MissingClassException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String className;

    public MissingClassException(String className) {
        super("class " + className.replace('/', '.') + " is not among the inputs, on --classpath, or in the JDK");
        this.className = className;
    }

    /** Internal name of the missing class. */
    public String className() {
        return className;
    }
}
