package org.picothreads.runtime;

import java.util.Objects;
import java.util.function.Supplier;
import org.picothreads.runtime.internal.Task;
import org.picothreads.runtime.internal.ThreadLocalValues;

/**
 * A {@link ThreadLocal} that holds one value per PicoThread; rewritten code creates one wherever the original created
 * a ThreadLocal, and a user subclass of ThreadLocal gets this class as its superclass.
 *
 * <p>The JDK keys thread-local values by {@link Thread#currentThread()}, which for every PicoThread is the one
 * carrier thread. Called by a PicoThread, {@link #get}, {@link #set} and {@link #remove} therefore keep the value in
 * the PicoThread's own table instead, created on first use, and {@link #initialValue()} (or a subclass's override)
 * supplies a missing value as the JDK's does. Called by a platform thread, they are the JDK's methods.
 */
public class PicoThreadLocal<T> extends ThreadLocal<T> {
    /** As {@link ThreadLocal#ThreadLocal()}. */
    public PicoThreadLocal() {
    }

    /**
     * As {@link ThreadLocal#withInitial}: a thread-local whose initial value comes from the supplier; rewritten code
     * calls this instead of the JDK method.
     */
    public static <S> ThreadLocal<S> withInitial(Supplier<? extends S> supplier) {
        return new SuppliedPicoThreadLocal<>(supplier);
    }

    @Override
    @SuppressWarnings("unchecked")
    public T get() {
        Task task = ThreadLocalValues.runningTask();
        if (task == null) {
            return super.get();
        }
        Object value = ThreadLocalValues.lookup(task, this);
        return value != ThreadLocalValues.ABSENT ? (T) value : ThreadLocalValues.store(task, this, initialValue());
    }

    @Override
    public void set(T value) {
        Task task = ThreadLocalValues.runningTask();
        if (task == null) {
            super.set(value);
        } else {
            ThreadLocalValues.store(task, this, value);
        }
    }

    @Override
    public void remove() {
        Task task = ThreadLocalValues.runningTask();
        if (task == null) {
            super.remove();
        } else {
            ThreadLocalValues.discard(task, this);
        }
    }

    /** The thread-local of {@link #withInitial}. */
    private static final class SuppliedPicoThreadLocal<T> extends PicoThreadLocal<T> {
        private final Supplier<? extends T> supplier;

        SuppliedPicoThreadLocal(Supplier<? extends T> supplier) {
            this.supplier = Objects.requireNonNull(supplier);
        }

        @Override
        protected T initialValue() {
            return supplier.get();
        }
    }
}
