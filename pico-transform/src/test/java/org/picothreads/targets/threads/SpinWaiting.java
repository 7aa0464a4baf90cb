package org.picothreads.targets.threads;

/**
 * Threads that spin with {@code Thread.onSpinWait()} until another thread acts: a flag set after a sleep, a token
 * passed back and forth between two spinning threads, and a Thread subclass that calls {@code onSpinWait()} by its
 * own name. On platform threads each spinner has a core of its own or is preempted; on PicoThreads that share a
 * carrier, the spin wait must let the other thread run.
 */
public final class SpinWaiting {
    private static final int ROUNDS = 1_000;

    private static volatile boolean ready;
    private static volatile int value;
    /** Whose turn it is in the token passing: even for the first thread, odd for the second. */
    private static volatile int turn;

    private SpinWaiting() {
    }

    public static String run() throws Exception {
        ready = false;
        value = 0;
        turn = 0;
        StringBuilder log = new StringBuilder();

        Thread spinner = new Thread(() -> {
            while (!ready) {
                Thread.onSpinWait();
            }
            log.append("the spinner saw ").append(value);
        });
        Thread setter = new Thread(() -> {
            try {
                Thread.sleep(5);
            } catch (InterruptedException exception) {
                throw new IllegalStateException(exception);
            }
            value = 42;
            ready = true;
        });
        spinner.start();
        setter.start();
        spinner.join();
        setter.join();

        int[] passes = new int[2];
        Thread first = new Thread(() -> passTokens(0, passes));
        Thread second = new Thread(() -> passTokens(1, passes));
        first.start();
        second.start();
        first.join();
        second.join();
        log.append("; token passed ").append(passes[0]).append(" and ").append(passes[1]).append(" times, turn ")
                .append(turn);

        ready = false;
        SpinningSubclass subclass = new SpinningSubclass();
        subclass.start();
        Thread releaser = new Thread(() -> ready = true);
        releaser.start();
        subclass.join();
        releaser.join();
        log.append("; the subclass saw ready ").append(subclass.sawReady);
        return log.toString();
    }

    /** Takes the turn {@code ROUNDS} times, spinning until it is this thread's (parity {@code side}). */
    private static void passTokens(int side, int[] passes) {
        for (int round = 0; round < ROUNDS; round++) {
            while (turn % 2 != side) {
                Thread.onSpinWait();
            }
            passes[side]++;
            turn = turn + 1;
        }
    }

    /** Spins by the inherited name, {@code onSpinWait()}, which javac compiles with this class as the owner. */
    private static final class SpinningSubclass extends Thread {
        private volatile boolean sawReady;

        @Override
        public void run() {
            while (!ready) {
                onSpinWait();
            }
            sawReady = ready;
        }
    }
}
