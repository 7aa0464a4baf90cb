package org.picothreads.transform;

/**
 * One class file as the transformer leaves it.
 *
 * @param source    the source of the {@link ClassInput} it came from
 * @param className the class's internal name, for example {@code com/example/Worker}
 * @param bytes     the rewritten class file, or the very input bytes when {@code changed} is false
 * @param changed   whether the class was rewritten
 */
public record ClassOutput(String source, String className, byte[] bytes, boolean changed) {
}
