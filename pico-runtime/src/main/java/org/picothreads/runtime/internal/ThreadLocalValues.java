package org.picothreads.runtime.internal;

import java.lang.ref.WeakReference;
import java.util.function.BiFunction;

/**
 * The thread-local values of one thread, keyed by the ThreadLocal weakly as the JDK's own map is: a PicoThread's
 * values live in its {@link Task}, created on first use, and the PicoThreads runtime's inheritable thread-locals keep
 * a platform thread's values in one of these too.
 *
 * <p>A small chained hash table on identity hash codes. An entry whose ThreadLocal has been collected is dropped when
 * its bucket is next searched or when the table grows. Not thread-safe: a task's values are touched only by that task
 * on the carrier, a platform thread's only by that thread.
 */
public final class ThreadLocalValues {
    /** What {@link #get} and {@link #lookup} return for a thread-local that has no value. */
    public static final Object ABSENT = new Object();
    private static final int INITIAL_CAPACITY = 8;

    /** One value, linked in its bucket. */
    private static final class Entry extends WeakReference<ThreadLocal<?>> {
        final int hash;
        Object value;
        Entry next;

        Entry(ThreadLocal<?> key, int hash, Object value, Entry next) {
            super(key);
            this.hash = hash;
            this.value = value;
            this.next = next;
        }
    }

    private Entry[] buckets = new Entry[INITIAL_CAPACITY];
    private int size;

    /** The task of the PicoThread running on this carrier, or null when the caller is not a PicoThread. */
    public static Task runningTask() {
        return Carrier.currentTaskOnThisThread();
    }

    /** The value a task holds for a thread-local, or {@link #ABSENT}. Called on the carrier by that task. */
    public static Object lookup(Task task, ThreadLocal<?> key) {
        ThreadLocalValues values = task.threadLocalValues;
        return values == null ? ABSENT : values.get(key);
    }

    /** Sets a task's value for a thread-local and returns it. Called on the carrier by that task. */
    public static <T> T store(Task task, ThreadLocal<?> key, T value) {
        ThreadLocalValues values = task.threadLocalValues;
        if (values == null) {
            values = new ThreadLocalValues();
            task.threadLocalValues = values;
        }
        values.put(key, value);
        return value;
    }

    /** Removes a task's value for a thread-local. Called on the carrier by that task. */
    public static void discard(Task task, ThreadLocal<?> key) {
        ThreadLocalValues values = task.threadLocalValues;
        if (values != null) {
            values.remove(key);
        }
    }

    /** The values of a task, or null when it has none yet. Called on the carrier. */
    public static ThreadLocalValues of(Task task) {
        return task.threadLocalValues;
    }

    /** The value for a thread-local, or {@link #ABSENT}. */
    public Object get(ThreadLocal<?> key) {
        int hash = System.identityHashCode(key);
        int index = hash & (buckets.length - 1);
        Entry previous = null;
        for (Entry entry = buckets[index]; entry != null; entry = entry.next) {
            ThreadLocal<?> entryKey = entry.get();
            if (entryKey == key) {
                return entry.value;
            }
            if (entryKey == null) {
                unlink(index, previous, entry);
            } else {
                previous = entry;
            }
        }
        return ABSENT;
    }

    /** Sets the value for a thread-local. */
    public void put(ThreadLocal<?> key, Object value) {
        int hash = System.identityHashCode(key);
        int index = hash & (buckets.length - 1);
        for (Entry entry = buckets[index]; entry != null; entry = entry.next) {
            if (entry.get() == key) {
                entry.value = value;
                return;
            }
        }
        if (size >= buckets.length - (buckets.length >> 2)) {
            rehash();
            index = hash & (buckets.length - 1);
        }
        buckets[index] = new Entry(key, hash, value, buckets[index]);
        size++;
    }

    /** Removes the value for a thread-local, if any. */
    public void remove(ThreadLocal<?> key) {
        int index = System.identityHashCode(key) & (buckets.length - 1);
        Entry previous = null;
        for (Entry entry = buckets[index]; entry != null; entry = entry.next) {
            ThreadLocal<?> entryKey = entry.get();
            if (entryKey == key || entryKey == null) {
                unlink(index, previous, entry);
                if (entryKey == key) {
                    return;
                }
            } else {
                previous = entry;
            }
        }
    }

    /**
     * The values a new thread inherits: for each value here, {@code inherit} gives the child's value, or
     * {@link #ABSENT} when the thread-local is not inheritable. Every key and value is read before the first call,
     * so {@code inherit} may use thread-locals itself. Returns null when nothing is inherited.
     */
    public ThreadLocalValues inheritedCopy(BiFunction<ThreadLocal<?>, Object, Object> inherit) {
        ThreadLocal<?>[] keys = new ThreadLocal<?>[size];
        Object[] values = new Object[size];
        int count = 0;
        for (Entry first : buckets) {
            for (Entry entry = first; entry != null; entry = entry.next) {
                ThreadLocal<?> key = entry.get();
                if (key != null) {
                    keys[count] = key;
                    values[count] = entry.value;
                    count++;
                }
            }
        }
        ThreadLocalValues copy = null;
        for (int index = 0; index < count; index++) {
            Object childValue = inherit.apply(keys[index], values[index]);
            if (childValue != ABSENT) {
                if (copy == null) {
                    copy = new ThreadLocalValues();
                }
                copy.put(keys[index], childValue);
            }
        }
        return copy;
    }

    private void unlink(int index, Entry previous, Entry entry) {
        if (previous == null) {
            buckets[index] = entry.next;
        } else {
            previous.next = entry.next;
        }
        entry.value = null;
        size--;
    }

    /** Drops the entries whose thread-local was collected, then doubles the table if it is still well filled. */
    private void rehash() {
        Entry[] old = buckets;
        int live = 0;
        for (Entry first : old) {
            for (Entry entry = first; entry != null; entry = entry.next) {
                if (entry.get() != null) {
                    live++;
                }
            }
        }
        int capacity = live >= old.length - (old.length >> 2) - (old.length >> 3) ? old.length << 1 : old.length;
        Entry[] fresh = new Entry[capacity];
        for (Entry first : old) {
            Entry entry = first;
            while (entry != null) {
                Entry next = entry.next;
                if (entry.get() != null) {
                    int index = entry.hash & (capacity - 1);
                    entry.next = fresh[index];
                    fresh[index] = entry;
                } else {
                    entry.value = null;
                }
                entry = next;
            }
        }
        buckets = fresh;
        size = live;
    }
}
