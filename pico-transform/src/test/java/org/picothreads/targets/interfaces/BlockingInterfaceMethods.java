package org.picothreads.targets.interfaces;

/**
 * Interface methods that block: a default method, a static interface method, a private interface method,
 * a default method overridden by a class that calls it through {@code Greeter.super}, and abstract interface
 * methods implemented by blocking class methods, all called through the interface.
 */
public final class BlockingInterfaceMethods {
    private BlockingInterfaceMethods() {
    }

    /** An interface whose default, static and private methods sleep. */
    interface Greeter {
        String name();

        int repeat() throws InterruptedException;

        default String greet() throws InterruptedException {
            Thread.sleep(1);
            return salute() + " " + name() + "x" + repeat();
        }

        private String salute() throws InterruptedException {
            Thread.sleep(1);
            return "hello";
        }

        static int twice(int value) throws InterruptedException {
            Thread.sleep(1);
            return value * 2;
        }
    }

    /** Keeps the default {@link Greeter#greet}. */
    static final class PlainGreeter implements Greeter {
        private final String name;

        PlainGreeter(String name) {
            this.name = name;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public int repeat() throws InterruptedException {
            Thread.sleep(1);
            return Greeter.twice(name.length());
        }
    }

    /** Overrides {@link Greeter#greet} and calls the default through {@code Greeter.super}. */
    static final class LoudGreeter implements Greeter {
        @Override
        public String name() {
            return "loud";
        }

        @Override
        public int repeat() {
            return 3;
        }

        @Override
        public String greet() throws InterruptedException {
            String quiet = Greeter.super.greet();
            Thread.sleep(1);
            return quiet.toUpperCase() + "!";
        }
    }

    public static String run() throws Exception {
        String[] results = new String[3];
        Greeter[] greeters = {new PlainGreeter("ada"), new LoudGreeter(), new PlainGreeter("grace")};
        Thread[] threads = new Thread[results.length];
        for (int index = 0; index < threads.length; index++) {
            int slot = index;
            Greeter greeter = greeters[index];
            threads[index] = new Thread(() -> {
                try {
                    int before = slot * 1000;
                    String greeting = greeter.greet();
                    int doubled = before + Greeter.twice(slot + 21);
                    results[slot] = greeting + ";" + doubled;
                } catch (InterruptedException exception) {
                    results[slot] = "interrupted";
                }
            });
        }
        for (Thread thread : threads) {
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        return String.join("\n", results);
    }
}
