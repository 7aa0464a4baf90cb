package org.picothreads.targets.nested;

/**
 * Thread bodies in every kind of nested class: a static nested Runnable, an inner class reading and writing
 * its outer instance's private fields, an inner class of an inner class, a local class, an anonymous Runnable,
 * and an anonymous Thread subclass (whose unqualified {@code sleep} is Thread's, inherited); each sleeps in the
 * middle of its work.
 */
public final class NestedAndAnonymousClasses {
    /** Result slots, one per thread. */
    private final String[] results = new String[6];
    /** Outer state the inner classes read and change. */
    private int outerCounter = 100;
    /** Written by the inner class after its sleep, read after it was joined. */
    private String innerNote = "unwritten";

    private NestedAndAnonymousClasses() {
    }

    public static String run() throws Exception {
        return new NestedAndAnonymousClasses().startAll();
    }

    /** A static nested class. */
    static final class StaticWorker implements Runnable {
        private final String[] results;

        StaticWorker(String[] results) {
            this.results = results;
        }

        @Override
        public void run() {
            long before = 1L << 36;
            sleep(2);
            results[0] = "static nested " + (before + 1);
        }
    }

    /** An inner class using its outer instance. */
    final class InnerWorker implements Runnable {
        private final int increment;

        InnerWorker(int increment) {
            this.increment = increment;
        }

        @Override
        public void run() {
            int seen = outerCounter;
            sleep(1);
            results[1] = "inner saw " + seen + " and adds " + increment;
            innerNote = "written by inner " + (seen + increment);
        }

        /** An inner class of an inner class, reaching both enclosing instances. */
        final class DeeperWorker implements Runnable {
            @Override
            public void run() {
                sleep(1);
                results[2] = "deeper " + increment + " " + results.length;
            }
        }
    }

    private String startAll() throws InterruptedException {
        InnerWorker inner = new InnerWorker(5);

        class LocalWorker implements Runnable {
            private final String prefix;

            LocalWorker(String prefix) {
                this.prefix = prefix;
            }

            @Override
            public void run() {
                String local = prefix + outerCounter;
                sleep(1);
                results[3] = local + " after sleep";
            }
        }

        String captured = "anonymous";
        Thread[] threads = {
            new Thread(new StaticWorker(results)),
            new Thread(inner),
            new Thread(inner.new DeeperWorker()),
            new Thread(new LocalWorker("local ")),
            new Thread(new Runnable() {
                @Override
                public void run() {
                    double value = 2.5;
                    sleep(2);
                    results[4] = captured + " runnable " + value * 2;
                }
            }),
            new Thread() {
                @Override
                public void run() {
                    int value = 41;
                    try {
                        sleep(1);
                    } catch (InterruptedException exception) {
                        results[5] = "interrupted";
                        return;
                    }
                    results[5] = captured + " thread subclass " + (value + 1);
                }
            },
        };
        for (Thread thread : threads) {
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        outerCounter += 1;
        return String.join("\n", results) + "\nouter " + outerCounter + ", " + innerNote;
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException exception) {
            throw new IllegalStateException("interrupted", exception);
        }
    }
}
