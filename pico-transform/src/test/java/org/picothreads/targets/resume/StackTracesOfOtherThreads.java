package org.picothreads.targets.resume;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Another thread's stack trace, as a third thread reads it with {@code Thread.getStackTrace()} and
 * {@code Thread.getAllStackTraces()}: before the thread starts, while it waits five calls deep (a PicoThread is then
 * suspended, its activations saved), and after it has ended; and of a thread that waits inside {@code List.forEach}
 * (a PicoThread is then pinned, its frames on its carrier's stack); and of a thread that runs, spinning five calls
 * deep after a sleep two calls above (a PicoThread then runs on its carrier the activations entered since its lazy
 * resume, the ones below still saved). The trace must name this class's methods at the same lines as on a platform
 * thread, innermost first, and the map of all threads must hold the waiting thread.
 */
public final class StackTracesOfOtherThreads {
    private StackTracesOfOtherThreads() {
    }

    public static String run() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        Thread waiting = new Thread(() -> outer(release), "waiting");
        String before = "before the start: " + waiting.getStackTrace().length + " frames";
        waiting.start();
        while (waiting.getState() != Thread.State.WAITING) {
            Thread.sleep(1);
        }
        String own = "waiting, its own trace: " + ownFrames(waiting.getStackTrace());
        Map<Thread, StackTraceElement[]> all = Thread.getAllStackTraces();
        String inAll = "in the map of all threads " + all.containsKey(waiting) + ": "
                + (all.containsKey(waiting) ? ownFrames(all.get(waiting)) : "");
        release.countDown();
        waiting.join();
        String after = "after the end: " + waiting.getStackTrace().length + " frames, in the map of all threads "
                + Thread.getAllStackTraces().containsKey(waiting);
        return before + "\n" + own + "\n" + inAll + "\n" + after + "\n" + waitingInsideForEach() + "\n"
                + running();
    }

    private static String running() throws InterruptedException {
        AtomicBoolean spinning = new AtomicBoolean();
        AtomicBoolean stop = new AtomicBoolean();
        Thread runner = new Thread(() -> sleepThenSpin(2, spinning, stop), "running");
        runner.start();
        while (!spinning.get()) {
            Thread.sleep(1);
        }
        String state = "running: " + runner.getState();
        String trace = ", its own trace: " + ownFrames(runner.getStackTrace());
        Map<Thread, StackTraceElement[]> all = Thread.getAllStackTraces();
        String inAll = ", in the map of all threads: " + (all.containsKey(runner) ? ownFrames(all.get(runner)) : "");
        stop.set(true);
        runner.join();
        return state + trace + inAll;
    }

    static void sleepThenSpin(int depth, AtomicBoolean spinning, AtomicBoolean stop) {
        if (depth > 0) {
            sleepThenSpin(depth - 1, spinning, stop);
            return;
        }
        try {
            Thread.sleep(1);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
        descendAndSpin(2, spinning, stop);
    }

    static void descendAndSpin(int depth, AtomicBoolean spinning, AtomicBoolean stop) {
        if (depth > 0) {
            descendAndSpin(depth - 1, spinning, stop);
            return;
        }
        spinning.set(true);
        while (!stop.get()) { Thread.onSpinWait(); }
    }

    private static String waitingInsideForEach() throws InterruptedException {
        CountDownLatch release = new CountDownLatch(1);
        Thread pinned = new Thread(() -> List.of(release).forEach(StackTracesOfOtherThreads::inner), "pinned");
        pinned.start();
        while (pinned.getState() != Thread.State.WAITING) {
            Thread.sleep(1);
        }
        String trace = "waiting inside forEach, its own trace: " + ownFrames(pinned.getStackTrace());
        release.countDown();
        pinned.join();
        return trace;
    }

    static void outer(CountDownLatch release) {
        middle(2, release);
    }

    static void middle(int depth, CountDownLatch release) {
        if (depth == 0) {
            inner(release);
        } else {
            middle(depth - 1, release);
        }
    }

    static void inner(CountDownLatch release) {
        try {
            release.await();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    /** This class's frames in a stack trace, as method:line, innermost first. */
    static String ownFrames(StackTraceElement[] trace) {
        StringBuilder frames = new StringBuilder();
        for (StackTraceElement element : trace) {
            if (element.getClassName().equals(StackTracesOfOtherThreads.class.getName())) {
                frames.append(element.getMethodName()).append(':').append(element.getLineNumber()).append(' ');
            }
        }
        return frames.toString().trim();
    }
}
