package org.picothreads.transform.io;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Chooses classes by name with include and exclude patterns, the same way for the Maven plugin and the agent.
 *
 * <p>A pattern is a class name such as {@code com.example.Worker} in which {@code *} stands for any run of
 * characters, dots included, and {@code ?} for one character: {@code com.example.*} is every class in
 * {@code com.example} and its subpackages, nested classes included ({@code com.example.Outer$Inner}). Slashes
 * count as dots, so {@code com/example/*} means the same. A class is chosen when it matches at least one include
 * (or no includes are given) and no exclude.
 */
public final class ClassNameFilter {
    private static final ClassNameFilter EVERY_CLASS = new ClassNameFilter(List.of(), List.of(), List.of(), List.of());

    private final List<String> includes;
    private final List<String> excludes;
    private final List<Pattern> includePatterns;
    private final List<Pattern> excludePatterns;

    private ClassNameFilter(List<String> includes, List<String> excludes, List<Pattern> includePatterns,
            List<Pattern> excludePatterns) {
        this.includes = includes;
        this.excludes = excludes;
        this.includePatterns = includePatterns;
        this.excludePatterns = excludePatterns;
    }

    /** The filter that chooses every class. */
    public static ClassNameFilter everyClass() {
        return EVERY_CLASS;
    }

    /**
     * A filter from include and exclude patterns; null lists and blank patterns are ignored.
     *
     * @throws IllegalArgumentException for a pattern with characters no class name can hold (spaces, semicolons)
     */
    public static ClassNameFilter of(List<String> includes, List<String> excludes) {
        List<String> includeList = cleaned(includes);
        List<String> excludeList = cleaned(excludes);
        return new ClassNameFilter(includeList, excludeList, compiled(includeList), compiled(excludeList));
    }

    /** The include patterns, in dotted form. */
    public List<String> includes() {
        return includes;
    }

    /** The exclude patterns, in dotted form. */
    public List<String> excludes() {
        return excludes;
    }

    /** True when the class, named in binary ({@code com.x.Foo$Bar}) or internal ({@code com/x/Foo$Bar}) form, is chosen. */
    public boolean accepts(String className) {
        String dotted = className.replace('/', '.');
        return (includePatterns.isEmpty() || anyMatches(includePatterns, dotted)) && !anyMatches(excludePatterns, dotted);
    }

    /**
     * True when one of the patterns matches the name; a loop, not a stream, as the agent calls it for every class
     * that loads from its first, and a lambda's first use costs a cold JVM milliseconds.
     */
    private static boolean anyMatches(List<Pattern> patterns, String dotted) {
        for (Pattern pattern : patterns) {
            if (pattern.matcher(dotted).matches()) {
                return true;
            }
        }
        return false;
    }

    /**
     * True when a class file, named by its path in a directory or jar ({@code com/x/Foo.class}), holds a chosen
     * class. A multi-release jar's version directory ({@code META-INF/versions/11/com/x/Foo.class}) is skipped
     * over, so the name is the class's.
     */
    public boolean acceptsClassFile(String entryName) {
        return accepts(classNameOf(entryName));
    }

    /** The binary name of the class a class file holds, from its path: {@code com/x/Foo.class} gives {@code com.x.Foo}. */
    public static String classNameOf(String entryName) {
        String name = entryName.endsWith(".class") ? entryName.substring(0, entryName.length() - ".class".length())
                : entryName;
        if (name.startsWith("META-INF/versions/")) {
            int afterVersion = name.indexOf('/', "META-INF/versions/".length());
            name = afterVersion < 0 ? name : name.substring(afterVersion + 1);
        }
        return name.replace('/', '.');
    }

    private static List<String> cleaned(List<String> patterns) {
        List<String> cleaned = new ArrayList<>();
        if (patterns != null) {
            for (String pattern : patterns) {
                if (pattern != null && !pattern.isBlank()) {
                    String dotted = pattern.strip().replace('/', '.');
                    if (!dotted.matches("[^\\s;:,]+")) {
                        throw new IllegalArgumentException("not a class name pattern: '" + pattern + "'");
                    }
                    cleaned.add(dotted);
                }
            }
        }
        return List.copyOf(cleaned);
    }

    private static List<Pattern> compiled(List<String> patterns) {
        List<Pattern> compiled = new ArrayList<>();
        for (String pattern : patterns) {
            StringBuilder regex = new StringBuilder();
            for (char character : pattern.toCharArray()) {
                if (character == '*') {
                    regex.append(".*");
                } else if (character == '?') {
                    regex.append('.');
                } else {
                    regex.append(Pattern.quote(String.valueOf(character)));
                }
            }
            compiled.add(Pattern.compile(regex.toString()));
        }
        return List.copyOf(compiled);
    }

    @Override
    public String toString() {
        return "includes " + includes + ", excludes " + excludes;
    }
}
