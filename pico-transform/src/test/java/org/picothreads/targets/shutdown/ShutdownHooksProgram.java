package org.picothreads.targets.shutdown;

/**
 * A program whose shutdown hooks are made with {@code new Thread(...)}: one sleeps before it prints and must run to
 * its end before the JVM exits, when main returns and when a thread calls System.exit; one is removed again;
 * registering a hook twice, a running thread, or a hook during shutdown is refused with the JDK's exceptions.
 */
public final class ShutdownHooksProgram {
    private ShutdownHooksProgram() {
    }

    /** Without arguments the program returns from main; with {@code exit-from-a-thread} a thread calls System.exit(3). */
    public static void main(String[] arguments) throws Exception {
        Runtime runtime = Runtime.getRuntime();
        Thread hook = sleepingHook(runtime);
        if (arguments.length > 0 && arguments[0].equals("exit-from-a-thread")) {
            runtime.addShutdownHook(hook);
            Thread exiter = new Thread(() -> {
                System.out.println("a thread calls System.exit(3)");
                System.exit(3);
            }, "exiter");
            exiter.start();
            exiter.join();
            System.out.println("System.exit returned");
            return;
        }
        runtime.addShutdownHook(hook);
        try {
            runtime.addShutdownHook(hook);
        } catch (IllegalArgumentException exception) {
            System.out.println("the same hook again: " + exception.getMessage());
        }
        Thread removed = new Thread(() -> System.out.println("the removed hook ran"), "removed-hook");
        runtime.addShutdownHook(removed);
        System.out.println("removing a registered hook: " + runtime.removeShutdownHook(removed));
        System.out.println("removing it again: " + runtime.removeShutdownHook(removed));
        System.out.println("removing a hook never registered: " + runtime.removeShutdownHook(new Thread(() -> { })));
        Thread running = new Thread(() -> {
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException exception) {
                return;
            }
        }, "running");
        running.setDaemon(true);
        running.start();
        try {
            runtime.addShutdownHook(running);
        } catch (IllegalArgumentException exception) {
            System.out.println("a running thread: " + exception.getMessage());
        }
        System.out.println("main returns");
    }

    private static Thread sleepingHook(Runtime runtime) {
        return new Thread(() -> {
            try {
                Thread.sleep(200);
                System.out.println("the sleeping hook ran to its end as " + Thread.currentThread().getName());
                try {
                    runtime.addShutdownHook(new Thread(() -> System.out.println("never runs")));
                } catch (IllegalStateException exception) {
                    System.out.println("adding a hook during shutdown: " + exception.getMessage());
                }
                try {
                    runtime.removeShutdownHook(new Thread(() -> System.out.println("never runs")));
                } catch (IllegalStateException exception) {
                    System.out.println("removing a hook during shutdown: " + exception.getMessage());
                }
            } catch (InterruptedException exception) {
                System.out.println("the hook was interrupted");
            }
        }, "sleeping-hook");
    }
}
