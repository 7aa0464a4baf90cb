package org.picothreads.targets.blindlibrary;

/**
 * A library type that the tests of methods left untransformed keep off the transformer's class path, so that the
 * frames of a method merging two of its subclasses cannot be computed.
 */
public abstract class Shape {
    /** The shape's name. */
    public abstract String name();

    /** A circle. */
    public static final class Circle extends Shape {
        @Override
        public String name() {
            return "circle";
        }
    }

    /** A square. */
    public static final class Square extends Shape {
        @Override
        public String name() {
            return "square";
        }
    }
}
