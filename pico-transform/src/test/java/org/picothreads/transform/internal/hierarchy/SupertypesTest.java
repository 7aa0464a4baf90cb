package org.picothreads.transform.internal.hierarchy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link ClassHierarchy#supertypesOf}, which the analysis of a fixed set of classes asks instead of
 * {@link ClassHierarchy#isSubtypeOf} for each pair of types: for every pair, the two must answer the same.
 */
class SupertypesTest {
    /** Classes and interfaces of the JDK, with deep and diamond-shaped hierarchies, and a name found nowhere. */
    private static final List<String> TYPES = List.of("java/lang/Object", "java/lang/String",
            "java/lang/CharSequence", "java/lang/Comparable", "java/io/Serializable", "java/util/ArrayList",
            "java/util/AbstractList", "java/util/List", "java/util/Collection", "java/lang/Iterable",
            "java/util/RandomAccess", "java/util/concurrent/ConcurrentHashMap", "java/util/Map",
            "java/util/concurrent/ConcurrentMap", "java/util/AbstractMap", "java/lang/Thread", "java/lang/Runnable",
            "java/util/concurrent/LinkedBlockingDeque", "java/util/concurrent/BlockingQueue", "java/util/Queue",
            "java/util/Deque", "java/io/BufferedReader", "java/io/Reader", "java/io/Closeable",
            "java/lang/AutoCloseable", "com/example/NowhereToBeFound");

    @Test
    void a_type_is_a_subtype_exactly_when_the_other_is_object_or_among_its_supertypes() throws Exception {
        try (ClassHierarchy hierarchy = new ClassHierarchy(List.of())) {
            int subtypes = 0;
            for (String type : TYPES) {
                Set<String> supertypes = hierarchy.supertypesOf(type);
                for (String ancestor : TYPES) {
                    boolean expected = hierarchy.isSubtypeOf(type, ancestor);
                    assertEquals(expected, ancestor.equals("java/lang/Object") || supertypes.contains(ancestor),
                            type + " < " + ancestor);
                    subtypes += expected ? 1 : 0;
                }
            }
            // the list's hierarchy: not every pair answers the same (a check that could not fail would prove nothing)
            assertTrue(subtypes > TYPES.size() && subtypes < TYPES.size() * TYPES.size(), "pairs related: " + subtypes);
        }
    }

    @Test
    void the_supertypes_of_a_class_include_the_interfaces_of_its_superclasses_and_of_their_interfaces()
            throws Exception {
        try (ClassHierarchy hierarchy = new ClassHierarchy(List.of())) {
            Set<String> supertypes = hierarchy.supertypesOf("java/util/concurrent/LinkedBlockingDeque");
            assertTrue(supertypes.containsAll(Set.of("java/util/concurrent/LinkedBlockingDeque",
                    "java/util/AbstractQueue", "java/util/AbstractCollection", "java/util/concurrent/BlockingDeque",
                    "java/util/concurrent/BlockingQueue", "java/util/Deque", "java/util/Queue",
                    "java/util/Collection", "java/lang/Iterable", "java/io/Serializable")), supertypes.toString());
            String missing = "com/example/NowhereToBeFound";
            assertEquals(Set.of(missing), hierarchy.supertypesOf(missing));
        }
    }
}
