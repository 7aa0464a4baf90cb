package org.picothreads.targets.compilation;

/**
 * Synchronized regions that cannot suspend (a block, a synchronized method, a block nested in another), each run
 * often enough to be compiled by the JIT, first with no thread suspended holding a monitor and then while one is
 * suspended holding another object's monitor, so that every entry also asks the runtime; a last region waits for
 * a holder suspended on its own object. Prints the count, which is exact only if every region excluded the others.
 */
public final class HotRegions {
    private static final int ROUNDS = 200_000;
    private static final Object LOCK = new Object();
    private static final Object HOLDER_LOCK = new Object();
    private static long counter;
    private static volatile boolean holderInside;
    private static volatile boolean released;

    private HotRegions() {
    }

    public static void main(String[] args) throws Exception {
        HotRegions instance = new HotRegions();
        Object outer = new Object();
        runRegions(instance, outer);
        Thread holder = new Thread(() -> {
            synchronized (HOLDER_LOCK) {
                holderInside = true;
                try {
                    while (!released) {
                        Thread.sleep(1);
                    }
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                counter += 1_000_000;
                holderInside = false;
            }
        });
        holder.start();
        while (!holderInside) {
            Thread.sleep(1);
        }
        runRegions(instance, outer);
        released = true;
        synchronized (HOLDER_LOCK) {
            if (holderInside) {
                throw new IllegalStateException("entered while the holder was inside");
            }
            counter++;
        }
        holder.join();
        System.out.println("counter=" + counter);
    }

    private static void runRegions(HotRegions instance, Object outer) {
        for (int round = 0; round < ROUNDS; round++) {
            increment();
            instance.incrementInMethod();
            incrementNested(outer);
        }
    }

    private static void increment() {
        synchronized (LOCK) {
            counter++;
        }
    }

    private synchronized void incrementInMethod() {
        counter++;
    }

    private static void incrementNested(Object outer) {
        synchronized (outer) {
            synchronized (LOCK) {
                counter++;
            }
        }
    }
}
