package org.picothreads.runtime;

import org.picothreads.runtime.internal.Task;
import org.picothreads.runtime.internal.ThreadLocalValues;

/**
 * An {@link InheritableThreadLocal} that holds one value per PicoThread and passes it on to the threads each thread
 * creates; rewritten code creates one wherever the original created an InheritableThreadLocal, and a user subclass
 * of InheritableThreadLocal gets this class as its superclass.
 *
 * <p>Called by a PicoThread, the value lives in the PicoThread's own table, as for {@link PicoThreadLocal}. Called by
 * a platform thread, it lives in a table that one JDK inheritable thread-local holds for that thread, so that a
 * PicoThread created there can inherit it too. Either way, a new thread inherits when it is constructed, from the
 * thread constructing it (PicoThread or platform thread), through {@link #childValue}, as the JDK specifies; the
 * constructor {@code Thread(ThreadGroup, Runnable, String, long, boolean)} with {@code false} inherits nothing.
 */
public class PicoInheritableThreadLocal<T> extends InheritableThreadLocal<T> {
    /** A platform thread's values of every PicoInheritableThreadLocal; null until the thread sets or reads one. */
    private static final InheritableThreadLocal<ThreadLocalValues> PLATFORM_VALUES = new InheritableThreadLocal<>() {
        @Override
        protected ThreadLocalValues childValue(ThreadLocalValues parentValues) {
            // A thread that inherited nothing holds null here, and passes null on.
            ThreadLocalValues inherited = parentValues == null
                    ? null
                    : parentValues.inheritedCopy(PicoInheritableThreadLocal::inheritedValue);
            LAST_INHERITED.set(inherited);
            return inherited;
        }
    };
    /**
     * On a platform thread, the values it last passed to a thread it constructed, which the constructor of a
     * PicoThread takes for the PicoThread's own table.
     */
    private static final ThreadLocal<ThreadLocalValues> LAST_INHERITED = new ThreadLocal<>();
    /** True once a platform thread has used a PicoInheritableThreadLocal, so that PicoThreads may inherit from one. */
    private static volatile boolean usedOnPlatformThreads;

    /** As {@link InheritableThreadLocal#InheritableThreadLocal()}. */
    public PicoInheritableThreadLocal() {
    }

    @Override
    @SuppressWarnings("unchecked")
    public T get() {
        Task task = ThreadLocalValues.runningTask();
        if (task != null) {
            Object value = ThreadLocalValues.lookup(task, this);
            return value != ThreadLocalValues.ABSENT ? (T) value : ThreadLocalValues.store(task, this, initialValue());
        }
        ThreadLocalValues values = platformValues();
        Object value = values.get(this);
        if (value != ThreadLocalValues.ABSENT) {
            return (T) value;
        }
        T initial = initialValue();
        platformValues().put(this, initial);
        return initial;
    }

    @Override
    public void set(T value) {
        Task task = ThreadLocalValues.runningTask();
        if (task != null) {
            ThreadLocalValues.store(task, this, value);
        } else {
            platformValues().put(this, value);
        }
    }

    @Override
    public void remove() {
        Task task = ThreadLocalValues.runningTask();
        if (task != null) {
            ThreadLocalValues.discard(task, this);
        } else {
            ThreadLocalValues values = PLATFORM_VALUES.get();
            if (values != null) {
                values.remove(this);
            }
        }
    }

    /**
     * The values a PicoThread being constructed inherits from the thread constructing it, or null when it inherits
     * none. Called by PicoThread's constructors after Thread's constructor, on the constructing thread.
     */
    static ThreadLocalValues inheritedByNewThread() {
        Task creator = ThreadLocalValues.runningTask();
        if (creator != null) {
            ThreadLocalValues values = ThreadLocalValues.of(creator);
            return values == null ? null : values.inheritedCopy(PicoInheritableThreadLocal::inheritedValue);
        }
        if (!usedOnPlatformThreads || PLATFORM_VALUES.get() == null) {
            return null;
        }
        // Thread's constructor has just copied this thread's values through PLATFORM_VALUES.childValue.
        ThreadLocalValues inherited = LAST_INHERITED.get();
        LAST_INHERITED.remove();
        return inherited;
    }

    /** The value a new thread inherits for one entry of a table, or ABSENT when its thread-local is not inheritable. */
    @SuppressWarnings("unchecked")
    private static Object inheritedValue(ThreadLocal<?> key, Object parentValue) {
        return key instanceof PicoInheritableThreadLocal
                ? ((PicoInheritableThreadLocal<Object>) key).childValue(parentValue)
                : ThreadLocalValues.ABSENT;
    }

    private static ThreadLocalValues platformValues() {
        ThreadLocalValues values = PLATFORM_VALUES.get();
        if (values == null) {
            usedOnPlatformThreads = true;
            values = new ThreadLocalValues();
            PLATFORM_VALUES.set(values);
        }
        return values;
    }
}
