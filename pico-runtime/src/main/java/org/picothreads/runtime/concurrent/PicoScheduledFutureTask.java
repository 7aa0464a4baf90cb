package org.picothreads.runtime.concurrent;

import java.lang.invoke.MethodHandles;
import java.util.concurrent.Callable;
import java.util.concurrent.Delayed;
import java.util.concurrent.RunnableScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.picothreads.runtime.internal.Capture;
import org.picothreads.runtime.internal.Continuation;
import org.picothreads.runtime.internal.Frame;
import org.picothreads.runtime.internal.Rewritten;

/**
 * A task of a {@link PicoScheduledExecutorService}, as the JDK's
 * {@code ScheduledThreadPoolExecutor.ScheduledFutureTask}: due at a time on {@link System#nanoTime()}'s clock,
 * ordered by that time and then by creation, and, when periodic, queued again after each run that returns normally.
 * Its {@code run()} follows the capture protocol by hand, so that a task blocking inside it suspends its worker:
 *
 * <pre>
 * run():  restoring and a frame of this method was saved  -> call PicoFutureTask.run() again (it restores its own)
 *         otherwise: the pool no longer runs it            -> cancel
 *                    else call PicoFutureTask.run()
 *         the call throws the capture signal              -> save an empty frame (resume point 0), rethrow
 *         periodic, and still not done after the call     -> next time (fixed rate: time + period; fixed delay:
 *                                                            now + delay), queue again
 * </pre>
 */
@Rewritten({"run()V"})
final class PicoScheduledFutureTask<V> extends PicoFutureTask<V> implements RunnableScheduledFuture<V> {
    private static final String RUN = "org/picothreads/runtime/concurrent/PicoScheduledFutureTask.run()V";
    /** This class's own lookup, which lets it reach the entry points for its own methods. */
    private static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();
    /** The longest delay kept as given, so that comparing two times cannot overflow (the JDK's bound too). */
    private static final long LONGEST_DELAY_NANOS = Long.MAX_VALUE >> 1;
    /** Breaks ties between tasks due at the same time, first scheduled first, across all pools as in the JDK. */
    private static final AtomicLong SEQUENCER = new AtomicLong();

    private final PicoScheduledExecutorService pool;
    private final long sequenceNumber;
    /** When the task is next due, on System.nanoTime()'s clock; written only while the task is not queued. */
    private volatile long time;
    /** Positive: fixed rate; negative: fixed delay of its magnitude; 0: runs once. */
    private final long period;

    PicoScheduledFutureTask(PicoScheduledExecutorService pool, Callable<V> callable, long delayNanos, long period) {
        super(callable, pool::futureCompleted);
        this.pool = pool;
        this.sequenceNumber = SEQUENCER.getAndIncrement();
        this.time = triggerTime(delayNanos);
        this.period = period;
    }

    /** The time {@code delayNanos} from now; a negative delay counts as none. */
    private static long triggerTime(long delayNanos) {
        return System.nanoTime() + Math.min(Math.max(0, delayNanos), LONGEST_DELAY_NANOS);
    }

    /**
     * The resume entry through which the runtime re-enters a saved activation of {@link #run()}: true when it was
     * captured again (the entry stops the signal).
     */
    @SuppressWarnings("unused")
    private static boolean $picothreads$resume(Object receiver, int method) {
        try {
            ((PicoScheduledFutureTask<?>) receiver).run();
            return false;
        } catch (Capture signal) {
            return true;
        }
    }

    @Override
    public void run() {
        Frame frame = null;
        if (Continuation.restoring() != 0) {
            frame = Continuation.resumeChecked(RUN, LOOKUP);
        }
        if (frame == null && !pool.mayRun(this)) {
            cancel(false);
            return;
        }
        try {
            if (frame != null && (frame.resumePoint() & 1) != 0) {
                Continuation.resultVoid();
            } else {
                super.run();
            }
        } catch (Capture signal) {
            Continuation.captureChecked(this, 0, 0, RUN, LOOKUP);
            throw signal;
        }
        if (period != 0 && !isDone()) {
            time = period > 0 ? time + period : triggerTime(-period);
            pool.requeuePeriodic(this);
        }
    }

    @Override
    boolean resetsAfterRun() {
        return period != 0;
    }

    /** Named as the JDK's {@code ScheduledThreadPoolExecutor$ScheduledFutureTask}, whose instances it stands for. */
    @Override
    String identity() {
        return "java.util.concurrent.ScheduledThreadPoolExecutor$ScheduledFutureTask@"
                + Integer.toHexString(hashCode());
    }

    @Override
    public boolean isPeriodic() {
        return period != 0;
    }

    @Override
    public long getDelay(TimeUnit unit) {
        return unit.convert(time - System.nanoTime(), TimeUnit.NANOSECONDS);
    }

    @Override
    public int compareTo(Delayed other) {
        if (other == this) {
            return 0;
        }
        if (other instanceof PicoScheduledFutureTask) {
            PicoScheduledFutureTask<?> task = (PicoScheduledFutureTask<?>) other;
            long difference = time - task.time;
            if (difference != 0) {
                return difference < 0 ? -1 : 1;
            }
            return sequenceNumber < task.sequenceNumber ? -1 : 1;
        }
        long difference = getDelay(TimeUnit.NANOSECONDS) - other.getDelay(TimeUnit.NANOSECONDS);
        return difference < 0 ? -1 : difference > 0 ? 1 : 0;
    }
}
