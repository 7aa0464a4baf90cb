package org.picothreads.targets.threads;

/**
 * Uncaught-exception handlers: each thread sleeps, then throws (directly, from a callee after its own sleep,
 * or an Error), and its handler receives that very exception, on that very thread, before join returns.
 */
public final class UncaughtExceptions {
    private UncaughtExceptions() {
    }

    /** An error a thread throws after sleeping. */
    static final class CustomError extends Error {
        private static final long serialVersionUID = 1L;

        CustomError(String message) {
            super(message);
        }
    }

    public static String run() throws Exception {
        String[] received = new String[3];
        Throwable[] thrown = new Throwable[received.length];
        Thread[] threads = {
            new Thread(() -> {
                sleep(2);
                RuntimeException exception = new IllegalStateException("boom-0");
                thrown[0] = exception;
                throw exception;
            }, "thrower-0"),
            new Thread(() -> {
                int depth = 3;
                sleep(1);
                throwAfterSleep(depth, thrown);
            }, "thrower-1"),
            new Thread(() -> {
                sleep(1);
                CustomError error = new CustomError("error-2");
                thrown[2] = error;
                throw error;
            }, "thrower-2"),
        };
        StringBuilder report = new StringBuilder();
        for (int index = 0; index < threads.length; index++) {
            int slot = index;
            Thread thread = threads[index];
            Thread.UncaughtExceptionHandler handler = (failed, throwable) -> received[slot] = failed.getName()
                    + " threw " + throwable.getClass().getSimpleName() + " '" + throwable.getMessage() + "'"
                    + ", same instance " + (throwable == thrown[slot])
                    + ", on that thread " + (Thread.currentThread() == failed);
            thread.setUncaughtExceptionHandler(handler);
            report.append("handler installed: ").append(thread.getUncaughtExceptionHandler() == handler).append('\n');
        }
        for (Thread thread : threads) {
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        return report + String.join("\n", received);
    }

    static void throwAfterSleep(int depth, Throwable[] thrown) {
        if (depth > 0) {
            sleep(1);
            throwAfterSleep(depth - 1, thrown);
            return;
        }
        sleep(1);
        UnsupportedOperationException exception = new UnsupportedOperationException("deep-1");
        thrown[1] = exception;
        throw exception;
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException exception) {
            throw new IllegalStateException("interrupted", exception);
        }
    }
}
