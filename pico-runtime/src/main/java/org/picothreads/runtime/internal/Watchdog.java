package org.picothreads.runtime.internal;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The scheduler's watchdog: a daemon platform thread, {@code pico-watchdog}, that finds a carrier blocked inside code
 * the runtime does not see (a JVM monitor or {@code Object.wait} inside JDK code, a park on a lock that JDK code
 * created, a blocking native call such as a pipe's or a process's read) and has the scheduler compensate for it as for
 * a pinned block, so that the other PicoThreads go on. Go's runtime has such a monitor (sysmon, which hands the
 * processor of a thread stuck in a system call to another thread); the JDK's scheduler of virtual threads has none:
 * it compensates only where the JDK itself knows that a virtual thread blocks pinned.
 *
 * <pre>
 * every period while PicoThreads are alive (up to 16 periods apart while no carrier dispatches; parked while none is):
 *   for each carrier:
 *     no dispatch, or another dispatch than at the last look  -> forget what was seen; its unseen block, if any, ends
 *     in a pinned block the scheduler knows of (compensated)   -> not blocked here
 *     Thread.getState() is BLOCKED, WAITING or TIMED_WAITING  -> blocked
 *     RUNNABLE within one dispatch for the threshold or more, and its innermost frame a native method known to
 *       block (looked at with getStackTrace: every look while blocked there, otherwise at most every interval,
 *       doubling from the threshold up to 1 s while it computes), and the carrier's CPU time grew by less than
 *       a sixteenth of the time since the look before  -> blocked
 *     otherwise (it computes)                                  -> not blocked; its unseen block, if any, ends
 *     blocked at every look for the threshold or more          -> the scheduler begins an unseen block: it counts
 *       the carrier as blocked and compensates as for a pinned block (a spare carrier, within maxCarriers)
 *   then the lanes (Scheduler.serveStalledLanes):
 *     a lane whose carriers began no dispatch since the look before, with threads waiting for I/O in its share of
 *       the poller and no idle poller of its own                -> an idle carrier is woken to look again: its next
 *       wait polls that share too, every millisecond
 *     a timer due, no carrier waiting for the timers, one idle  -> that carrier is woken: it fires the timer
 * </pre>
 *
 * The second part is for a carrier that left an idle role (its lane's I/O, the timers) for a dispatch that turned
 * out long: the other idle carriers chose their waits before, and would not look again until it ends.
 *
 * A carrier's unseen block also ends when its dispatch does ({@link Scheduler#endUnseenBlock}), or when the thread
 * goes on into a pinned block the scheduler knows of. The only cost on the dispatch path is the carrier's plain
 * increment of {@link Carrier#dispatchNumber} and its plain read of {@link Carrier#unseenBlock} after a dispatch;
 * the watchdog reads the carriers' fields without locks, as hints, and confirms under the scheduler's lock.
 */
final class Watchdog implements Runnable {
    /** Longest interval between two looks at the stack of a carrier that computes. */
    private static final long LONGEST_STACK_SAMPLE_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);
    /**
     * A carrier found in a native method known to block counts as running it (a non-blocking call made again and
     * again, such as an accept loop draining a backlog of connections, or a read of a file that is all there) when
     * its CPU time grew since the look before by at least the time since then divided by this; a thread blocked in
     * a system call uses next to none.
     */
    private static final int RUNNING_CPU_SHARE_DIVISOR = 16;
    /** How many times longer than the period the watchdog waits at most while no carrier dispatches. */
    private static final int MOST_IDLE_BACKOFF_SHIFT = 4;
    /**
     * The native methods, as {@code class.method}, in which a thread blocks until something outside it happens:
     * reads and accepts of pipes, sockets, files and processes, and polls; a thread in one is RUNNABLE.
     */
    private static final Set<String> BLOCKING_NATIVE_METHODS = Set.of(
            "sun.nio.ch.SocketDispatcher.read0", "sun.nio.ch.SocketDispatcher.readv0",
            "sun.nio.ch.SocketDispatcher.write0", "sun.nio.ch.SocketDispatcher.writev0",
            "sun.nio.ch.FileDispatcherImpl.read0", "sun.nio.ch.FileDispatcherImpl.readv0",
            "sun.nio.ch.FileDispatcherImpl.write0", "sun.nio.ch.FileDispatcherImpl.writev0",
            "sun.nio.ch.UnixFileDispatcherImpl.read0", "sun.nio.ch.UnixFileDispatcherImpl.readv0",
            "sun.nio.ch.UnixFileDispatcherImpl.write0", "sun.nio.ch.UnixFileDispatcherImpl.writev0",
            "sun.nio.ch.DatagramDispatcher.read0", "sun.nio.ch.DatagramDispatcher.readv0",
            "sun.nio.ch.DatagramChannelImpl.receive0", "sun.nio.ch.DatagramChannelImpl.send0",
            "sun.nio.ch.Net.accept", "sun.nio.ch.Net.poll", "sun.nio.ch.Net.pollConnect", "sun.nio.ch.Net.connect0",
            "sun.nio.ch.EPoll.wait", "sun.nio.ch.KQueue.poll", "sun.nio.ch.PollSelectorImpl.poll",
            "java.io.FileInputStream.readBytes", "java.io.FileInputStream.read0",
            "java.io.FileOutputStream.writeBytes", "java.io.FileOutputStream.write",
            "java.io.RandomAccessFile.readBytes", "java.io.RandomAccessFile.read0",
            "java.io.Console.readline", "jdk.internal.io.JdkConsoleImpl.readline",
            "java.lang.ProcessHandleImpl.waitForProcessExit0", "java.lang.ProcessImpl.waitForInterruptibly",
            "java.net.PlainSocketImpl.socketAccept", "java.net.SocketInputStream.socketRead0");

    /** The running watchdog's thread, or null; the deadlock detector does not count it. */
    private static volatile Thread watchdogThread;

    private final Scheduler scheduler;
    private final long periodNanos;
    private final long thresholdNanos;
    /** True while the watchdog parks for lack of live PicoThreads, until {@link #wake}. */
    private volatile boolean dormant;
    /** Each lane's dispatch count at the look before ({@link Scheduler#serveStalledLanes}). */
    private int[] laneDispatchesSeen = new int[0];
    /** The carriers looked at, reused from look to look. */
    private Carrier[] carriers = new Carrier[0];
    /**
     * What reads the carriers' CPU time, looked up when a carrier is first found in a native method known to block
     * (the JDK's management classes load then); null before, or where the JVM measures no thread's CPU time.
     */
    private ThreadMXBean cpuClocks;
    /** Whether {@link #cpuClocks} was looked up. */
    private boolean cpuClocksLookedUp;

    Watchdog(Scheduler scheduler, RuntimeSettings.WatchdogSettings settings) {
        this.scheduler = scheduler;
        this.periodNanos = settings.periodNanos();
        this.thresholdNanos = settings.thresholdNanos();
    }

    /** Starts the watchdog's daemon thread. */
    void start() {
        Thread thread = RuntimeThreads.create(this, "pico-watchdog", 0, true);
        watchdogThread = thread;
        thread.start();
    }

    /** True when {@code thread} is the watchdog's. */
    static boolean isWatchdog(Thread thread) {
        return thread == watchdogThread;
    }

    /** Wakes the watchdog if it parks for lack of live PicoThreads; any thread may call this. */
    void wake() {
        if (dormant) {
            Thread thread = watchdogThread;
            if (thread != null) {
                LockSupport.unpark(thread);
            }
        }
    }

    @Override
    public void run() {
        int backoffShift = 0;
        while (true) {
            Thread.interrupted();
            if (!scheduler.hasLiveTasks()) {
                dormant = true;
                // A thread admitted after this look sees the watchdog dormant and wakes it.
                if (!scheduler.hasLiveTasks()) {
                    LockSupport.park(this);
                }
                dormant = false;
                continue;
            }
            LockSupport.parkNanos(this, periodNanos << backoffShift);
            boolean anyDispatching = look(System.nanoTime());
            backoffShift = anyDispatching ? 0 : Math.min(backoffShift + 1, MOST_IDLE_BACKOFF_SHIFT);
        }
    }

    /** Looks at every carrier once; true when one of them was in a dispatch. */
    private boolean look(long now) {
        carriers = scheduler.carriersNow(carriers);
        boolean anyDispatching = false;
        for (Carrier carrier : carriers) {
            if (carrier == null) {
                break;
            }
            anyDispatching |= lookAt(carrier, now);
        }
        laneDispatchesSeen = scheduler.serveStalledLanes(laneDispatchesSeen);
        return anyDispatching;
    }

    /** Looks at one carrier: begins or ends its unseen block as described above; true when it is in a dispatch. */
    private boolean lookAt(Carrier carrier, long now) {
        Task running = carrier.current;
        int dispatch = carrier.dispatchNumber;
        if (running == null || dispatch != carrier.watchedDispatch || carrier.watchedSinceNanos == 0) {
            carrier.watchedDispatch = dispatch;
            carrier.watchedSinceNanos = now;
            carrier.blockedSinceNanos = 0;
            carrier.nextStackSampleNanos = now + thresholdNanos;
            carrier.stackSampleIntervalNanos = thresholdNanos;
            carrier.nativeCpuSampleNanos = 0;
            if (carrier.unseenBlock) {
                scheduler.endUnseenBlock(carrier);
            }
            if (running == null) {
                carrier.watchedSinceNanos = 0;
                return false;
            }
        }
        String blocked = carrier.pinnedBlock ? null : blockedHow(carrier, now);
        if (blocked == null) {
            carrier.blockedSinceNanos = 0;
            if (carrier.unseenBlock) {
                scheduler.endUnseenBlock(carrier);
            }
            return true;
        }
        if (carrier.blockedSinceNanos == 0) {
            carrier.blockedSinceNanos = now;
        } else if (!carrier.unseenBlock && now - carrier.blockedSinceNanos >= thresholdNanos) {
            scheduler.beginUnseenBlock(carrier, dispatch, blocked, carrier.blockedSinceNanos);
        }
        return true;
    }

    /**
     * What blocks a dispatching carrier ({@code "WAITING"}, {@code "in native sun.nio.ch.Net.accept"}, ...), or null
     * when it is not blocked: it runs, or computes.
     */
    private String blockedHow(Carrier carrier, long now) {
        Thread.State state = carrier.getState();
        if (isBlockedState(state)) {
            return state.name();
        }
        if (state != Thread.State.RUNNABLE || now - carrier.nextStackSampleNanos < 0) {
            return null;
        }
        StackTraceElement[] stack = carrier.getStackTrace();
        String method = stack.length == 0 ? null : blockingNativeMethod(stack[0]);
        if (method != null) {
            carrier.nextStackSampleNanos = now; // looked at again at every look while it stays there
            carrier.stackSampleIntervalNanos = thresholdNanos;
            return runsInNative(carrier, now) ? null : "in native " + method;
        }
        carrier.nativeCpuSampleNanos = 0;
        carrier.nextStackSampleNanos = now + carrier.stackSampleIntervalNanos;
        carrier.stackSampleIntervalNanos = Math.min(carrier.stackSampleIntervalNanos * 2,
                LONGEST_STACK_SAMPLE_INTERVAL_NANOS);
        return null;
    }

    /**
     * True when the carrier, found in a native method known to block at this look and the one before, used CPU time
     * since then as a thread that runs does ({@link #RUNNING_CPU_SHARE_DIVISOR}): the method did not block, it was
     * called again and again. False at the first such look, which only takes the reading, and where the JVM gives no
     * thread's CPU time (a blocking method is then taken to block, as the stack alone suggests).
     */
    private boolean runsInNative(Carrier carrier, long now) {
        long cpuNanos = cpuNanos(carrier);
        long sinceNanos = carrier.nativeCpuSampleNanos;
        long cpuBefore = carrier.nativeCpuNanos;
        carrier.nativeCpuSampleNanos = cpuNanos < 0 ? 0 : now;
        carrier.nativeCpuNanos = cpuNanos;
        return cpuNanos >= 0 && sinceNanos != 0
                && (cpuNanos - cpuBefore) * RUNNING_CPU_SHARE_DIVISOR >= now - sinceNanos;
    }

    /** The carrier's CPU time in nanoseconds, or -1 where the JVM does not measure it. */
    private long cpuNanos(Carrier carrier) {
        if (!cpuClocksLookedUp) {
            cpuClocksLookedUp = true;
            try {
                ThreadMXBean threads = ManagementFactory.getThreadMXBean();
                cpuClocks = threads.isThreadCpuTimeSupported() ? threads : null;
            } catch (LinkageError | RuntimeException unavailable) {
                cpuClocks = null; // a runtime image without java.management: the stack alone decides
            }
        }
        if (cpuClocks == null) {
            return -1;
        }
        try {
            return cpuClocks.getThreadCpuTime(carrier.getId());
        } catch (RuntimeException refused) {
            cpuClocks = null; // a security manager that refuses it, say: from then on the stack alone decides
            return -1;
        }
    }

    /** True for the states of a thread that waits: BLOCKED, WAITING and TIMED_WAITING, not RUNNABLE (it may compute). */
    static boolean isBlockedState(Thread.State state) {
        return state == Thread.State.BLOCKED || state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING;
    }

    /** The native method, as {@code class.method}, when {@code frame} is one known to block; otherwise null. */
    static String blockingNativeMethod(StackTraceElement frame) {
        if (!frame.isNativeMethod()) {
            return null;
        }
        String method = frame.getClassName() + "." + frame.getMethodName();
        return BLOCKING_NATIVE_METHODS.contains(method) ? method : null;
    }
}
