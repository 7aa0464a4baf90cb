package org.picothreads.runtime.internal;

import java.lang.invoke.MethodHandles;
import java.util.HashSet;
import java.util.Set;

/**
 * Decides which code may reach the capture and restore entry points of {@link Continuation}: only a class that
 * carries the {@link Rewritten} marker, for the methods the marker lists, and only with its own lookup, the one
 * the JVM hands an invokedynamic bootstrap or that {@code MethodHandles.lookup()} returns in the class itself. Such a
 * lookup has {@link MethodHandles.Lookup#ORIGINAL} access, which no other lookup has: not one teleported with
 * {@code in}, nor one from {@code privateLookupIn}. So a class can touch only its own saved activations, and a class
 * the transformer did not mark none at all. What is not prevented: a class that imitates the transformer's marker
 * exactly (it can then save and restore activations of its own methods, as rewritten code does), and deep
 * reflection into the runtime's private members ({@code setAccessible}), which the class path does not refuse.
 */
final class ProtocolAccess {
    /** The keys ({@code owner.name+descriptor}) of the methods each class's marker lists as capturing. */
    private static final ClassValue<Set<String>> MARKED_METHODS = new ClassValue<>() {
        @Override
        protected Set<String> computeValue(Class<?> type) {
            Rewritten marker = type.getAnnotation(Rewritten.class);
            if (marker == null) {
                return Set.of();
            }
            String owner = type.getName().replace('.', '/') + ".";
            Set<String> keys = new HashSet<>();
            for (String method : marker.value()) {
                keys.add(owner + method);
            }
            return Set.copyOf(keys);
        }
    };

    private ProtocolAccess() {
    }

    /**
     * Returns when {@code caller} is the own lookup of a class whose marker lists {@code method}; otherwise throws an
     * {@link IllegalCallerException} that says why.
     *
     * @param entry the entry point asked for, named in the error
     */
    static void check(MethodHandles.Lookup caller, String method, String entry) {
        if (caller == null) {
            throw refused(null, entry, method, "no lookup was given");
        }
        Class<?> type = caller.lookupClass();
        if ((caller.lookupModes() & MethodHandles.Lookup.ORIGINAL) == 0) {
            throw refused(type, entry, method, "the lookup is not the class's own (MethodHandles.lookup() in the"
                    + " class itself)");
        }
        Set<String> marked = MARKED_METHODS.get(type);
        if (marked.contains(method)) {
            return;
        }
        if (marked.isEmpty()) {
            throw refused(type, entry, method, "the class was not rewritten by PicoThreads");
        }
        throw refused(type, entry, method, "a class reaches only the saved activations of its own rewritten methods");
    }

    private static IllegalCallerException refused(Class<?> type, String entry, String method, String reason) {
        return new IllegalCallerException("PicoThreads: " + (type == null ? "a caller" : type.getName())
                + " may not call Continuation." + entry + " for " + method + ": " + reason);
    }
}
