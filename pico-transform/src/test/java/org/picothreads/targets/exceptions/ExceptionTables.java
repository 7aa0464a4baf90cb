package org.picothreads.targets.exceptions;

import java.util.ArrayList;
import java.util.List;

/**
 * Suspensions inside exception-table ranges: handlers for Throwable, Error and Exception around a sleep must
 * never see the capture; a finally block (javac's catch-any) around a sleep runs exactly once; nested
 * try/finally blocks run once each, inner first; an exception thrown after the resume, directly or from a
 * callee, is caught by the right handler; sleeps inside catch and finally blocks; multi-catch; a rethrow
 * caught further out; and try-with-resources whose resources close once, in reverse order, with a suppressed
 * exception from close.
 */
public final class ExceptionTables {
    private ExceptionTables() {
    }

    public static String run() throws Exception {
        String[] results = new String[3];
        Thread[] threads = new Thread[results.length];
        for (int index = 0; index < threads.length; index++) {
            int seed = index;
            threads[index] = new Thread(() -> results[seed] = String.join("; ", exercise(seed)));
        }
        for (Thread thread : threads) {
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        return String.join("\n", results);
    }

    static List<String> exercise(int seed) {
        List<String> log = new ArrayList<>();
        log.add(catchThrowable(seed));
        log.add(catchError(seed));
        log.add(catchException(seed));
        log.add(finallyOnce(seed));
        log.add(nestedFinally(seed));
        log.add(thrownAfterResume(seed));
        log.add(thrownByCalleeAfterResume(seed));
        log.add(sleepInCatchAndFinally(seed));
        log.add(multiCatch(seed));
        log.add(rethrown(seed));
        log.add(resources(seed));
        log.add(resourcesWithFailure(seed));
        log.add(loopWithHandler(seed));
        return log;
    }

    static String catchThrowable(int seed) {
        String seen = "nothing caught";
        try {
            sleep(1);
        } catch (Throwable throwable) {
            seen = "caught " + throwable;
        }
        return "catch Throwable: " + seen + " " + seed;
    }

    static String catchError(int seed) {
        String seen = "nothing caught";
        try {
            sleep(1);
        } catch (Error error) {
            seen = "caught " + error;
        }
        return "catch Error: " + seen + " " + seed;
    }

    static String catchException(int seed) {
        long kept = 1L << (30 + seed);
        try {
            sleep(1);
            if (seed < 0) {
                throw new Exception("never");
            }
        } catch (Exception exception) {
            return "catch Exception: caught " + exception;
        }
        return "catch Exception: nothing caught, kept " + kept;
    }

    static String finallyOnce(int seed) {
        int[] finallyRuns = new int[1];
        int result = 0;
        try {
            result = seed + sleepThenGet(10);
        } finally {
            finallyRuns[0]++;
        }
        return "finally ran " + finallyRuns[0] + " time(s), result " + result;
    }

    static String nestedFinally(int seed) {
        StringBuilder order = new StringBuilder();
        try {
            order.append("outer-try ");
            try {
                order.append("inner-try ");
                try {
                    sleep(1);
                    order.append("innermost-" + seed + " ");
                } finally {
                    order.append("innermost-finally ");
                }
                sleep(1);
            } finally {
                order.append("inner-finally ");
            }
        } finally {
            order.append("outer-finally");
        }
        return "nested: " + order;
    }

    static String thrownAfterResume(int seed) {
        try {
            try {
                sleep(1);
                throw new IllegalStateException("after-resume-" + seed);
            } catch (IllegalArgumentException wrong) {
                return "wrong handler (argument) " + wrong.getMessage();
            }
        } catch (IllegalStateException right) {
            return "right handler " + right.getMessage();
        } catch (RuntimeException wrong) {
            return "wrong handler (runtime) " + wrong.getMessage();
        }
    }

    static String thrownByCalleeAfterResume(int seed) {
        int before = seed * 2;
        try {
            failAfterSleep("callee-" + seed);
            return "callee did not throw";
        } catch (UnsupportedOperationException exception) {
            return "callee threw " + exception.getMessage() + ", before " + before;
        }
    }

    static String sleepInCatchAndFinally(int seed) {
        StringBuilder trace = new StringBuilder();
        try {
            trace.append("try ");
            throw new IllegalStateException("thrown-" + seed);
        } catch (IllegalStateException exception) {
            sleep(1);
            trace.append("catch(").append(exception.getMessage()).append(") ");
            sleep(1);
        } finally {
            sleep(1);
            trace.append("finally");
        }
        return "sleeps in handlers: " + trace;
    }

    static String multiCatch(int seed) {
        try {
            sleep(1);
            if (seed % 2 == 0) {
                throw new IllegalArgumentException("even-" + seed);
            }
            throw new ArithmeticException("odd-" + seed);
        } catch (IllegalArgumentException | ArithmeticException exception) {
            return "multi-catch " + exception.getClass().getSimpleName() + " " + exception.getMessage();
        }
    }

    static String rethrown(int seed) {
        int finallyRuns = 0;
        try {
            try {
                sleep(1);
                throw new IllegalStateException("first-" + seed);
            } catch (IllegalStateException exception) {
                sleep(1);
                throw new RuntimeException("wrapped", exception);
            } finally {
                finallyRuns++;
            }
        } catch (RuntimeException outer) {
            return "rethrown " + outer.getMessage() + " caused by " + outer.getCause().getMessage()
                    + ", finally " + finallyRuns;
        }
    }

    static String resources(int seed) {
        List<String> closed = new ArrayList<>();
        String body;
        try (Resource first = new Resource("first-" + seed, closed, false);
                Resource second = new Resource("second-" + seed, closed, false)) {
            sleep(1);
            body = first.name() + "+" + second.name();
            sleep(1);
        }
        return "resources: body " + body + ", closed " + closed;
    }

    static String resourcesWithFailure(int seed) {
        List<String> closed = new ArrayList<>();
        try (Resource resource = new Resource("failing-" + seed, closed, true)) {
            sleep(1);
            throw new IllegalStateException("body failed " + resource.name());
        } catch (IllegalStateException exception) {
            return "failing resource: " + exception.getMessage() + ", suppressed "
                    + exception.getSuppressed()[0].getMessage() + ", closed " + closed;
        }
    }

    static String loopWithHandler(int seed) {
        int caught = 0;
        int finished = 0;
        for (int round = 0; round < 4; round++) {
            try {
                sleep(1);
                if ((round + seed) % 2 == 0) {
                    throw new IllegalStateException("round " + round);
                }
                finished++;
            } catch (IllegalStateException exception) {
                caught++;
                continue;
            }
            finished += 10;
        }
        return "loop caught " + caught + ", finished " + finished;
    }

    static void failAfterSleep(String message) {
        long marker = 77L;
        sleep(1);
        if (marker == 77L) {
            throw new UnsupportedOperationException(message);
        }
    }

    static int sleepThenGet(int value) {
        sleep(1);
        return value;
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException exception) {
            throw new IllegalStateException("interrupted", exception);
        }
    }

    /** A resource that records its closing, sleeps while closing, and may fail to close. */
    static final class Resource implements AutoCloseable {
        private final String name;
        private final List<String> closed;
        private final boolean failOnClose;

        Resource(String name, List<String> closed, boolean failOnClose) {
            this.name = name;
            this.closed = closed;
            this.failOnClose = failOnClose;
        }

        String name() {
            return name;
        }

        @Override
        public void close() {
            sleep(1);
            closed.add(name);
            if (failOnClose) {
                throw new IllegalArgumentException("close failed " + name);
            }
        }
    }
}
