package org.picothreads.runtime.internal;

import java.lang.invoke.MethodHandle;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A rewritten method whose activations can be saved, with the layouts of the activations saved at each of its call
 * sites ({@link SiteLayout}); one per method, shared by every thread, so that a saved activation holds one reference
 * to its layout instead of the method's class, key and counts.
 */
final class SavedMethod {
    /** The methods of each class, by key; the capture entries bind them when they are linked. */
    private static final ClassValue<ConcurrentHashMap<String, SavedMethod>> METHODS = new ClassValue<>() {
        @Override
        protected ConcurrentHashMap<String, SavedMethod> computeValue(Class<?> type) {
            return new ConcurrentHashMap<>();
        }
    };
    private static final SiteLayout[] NO_LAYOUTS = {};

    /** The class declaring the method, whose resume entry re-enters it. */
    final Class<?> owner;
    /** The method's key, {@code owner.name+descriptor}. */
    final String key;
    /**
     * The owner's resume entry, once a resume looked it up: a resume calls it for every activation it restores, and a
     * field read costs less than the class's lookup. Set without a lock (every thread finds the same handle).
     */
    private MethodHandle resumeEntry;
    /** The layouts by call site number, each the first of a list; replaced whole when one is added. */
    private volatile SiteLayout[] layouts = NO_LAYOUTS;

    private SavedMethod(Class<?> owner, String key) {
        this.owner = owner;
        this.key = key;
    }

    /** The method {@code key} of {@code owner}. */
    static SavedMethod of(Class<?> owner, String key) {
        ConcurrentHashMap<String, SavedMethod> methods = METHODS.get(owner);
        SavedMethod method = methods.get(key);
        return method != null ? method : methods.computeIfAbsent(key, absent -> new SavedMethod(owner, absent));
    }

    /** The owner's resume entry ({@link DispatchFrame#resumeEntryOf}), or null when it has none. */
    MethodHandle resumeEntry() {
        MethodHandle entry = resumeEntry;
        if (entry == null) {
            entry = DispatchFrame.resumeEntryOf(owner);
            resumeEntry = entry;
        }
        return entry;
    }

    /**
     * The layout of an activation stopped at {@code site} (the call site in its low 16 bits) that saves the values
     * {@code counts} gives, its call's arguments too when {@code argumentsSaved}, and a receiver when
     * {@code hasReceiver}; created at the first such capture.
     */
    SiteLayout layout(int site, long counts, boolean argumentsSaved, boolean hasReceiver) {
        SiteLayout[] table = layouts;
        int index = site & 0xFFFF;
        if (index < table.length) {
            for (SiteLayout each = table[index]; each != null; each = each.next) {
                if (each.matches(site, counts, argumentsSaved, hasReceiver)) {
                    return each;
                }
            }
        }
        return addLayout(site, counts, argumentsSaved, hasReceiver);
    }

    private synchronized SiteLayout addLayout(int site, long counts, boolean argumentsSaved, boolean hasReceiver) {
        SiteLayout[] table = layouts;
        int index = site & 0xFFFF;
        SiteLayout first = index < table.length ? table[index] : null;
        for (SiteLayout each = first; each != null; each = each.next) {
            if (each.matches(site, counts, argumentsSaved, hasReceiver)) {
                return each;
            }
        }
        SiteLayout added = new SiteLayout(this, site, counts, argumentsSaved, hasReceiver, first);
        SiteLayout[] grown = Arrays.copyOf(table, Math.max(table.length, index + 1));
        grown[index] = added;
        layouts = grown;
        return added;
    }

    @Override
    public String toString() {
        return key;
    }
}
