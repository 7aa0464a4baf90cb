package org.picothreads.targets.threadlocals;

/**
 * A thousand threads each set, read back, remove and re-initialize thread-local values across sleeps, with an
 * {@code initialValue} override, {@code ThreadLocal.withInitial}, and an inheritable value that passes from the
 * calling thread to each thread and from some of them to a child of their own through {@code childValue}.
 */
public final class ThreadLocalsPerThread {
    /** How many threads run at once. */
    static final int THREADS = 1_000;
    /** Every this many threads, a thread starts a child of its own. */
    static final int CHILD_EVERY = 100;

    private static final ThreadLocal<Integer> OWN_NUMBER = new ThreadLocal<>();
    private static final ThreadLocal<String> NAMED = new ThreadLocal<>() {
        @Override
        protected String initialValue() {
            return "initial of " + Thread.currentThread().getName();
        }
    };
    private static final ThreadLocal<StringBuilder> LOG = ThreadLocal.withInitial(StringBuilder::new);
    private static final InheritableThreadLocal<String> CONTEXT = new InheritableThreadLocal<>() {
        @Override
        protected String childValue(String parentValue) {
            return parentValue + "/child";
        }
    };

    private ThreadLocalsPerThread() {
    }

    public static String run() throws Exception {
        CONTEXT.set("root");
        String[] results = new String[THREADS];
        Thread[] threads = new Thread[THREADS];
        for (int index = 0; index < THREADS; index++) {
            int slot = index;
            threads[index] = new Thread(() -> results[slot] = work(slot), "worker-" + index);
        }
        CONTEXT.set("root, changed after the threads were created");
        for (Thread thread : threads) {
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        int correct = 0;
        for (int slot = 0; slot < THREADS; slot++) {
            if (results[slot].equals(expected(slot))) {
                correct++;
            }
        }
        String callerContext = CONTEXT.get();
        CONTEXT.remove();
        return "threads " + THREADS + ", correct " + correct + ", caller's context " + callerContext
                + ", caller's own number " + OWN_NUMBER.get() + "\nfirst: " + results[0] + "\nsecond: " + results[1]
                + "\nlast: " + results[THREADS - 1];
    }

    /** What the thread of a slot sees: its own values only, whatever the others do meanwhile. */
    static String work(int slot) {
        OWN_NUMBER.set(slot);
        String initialName = NAMED.get();
        sleep(1 + slot % 3);
        LOG.get().append(slot).append(';');
        int ownNumber = OWN_NUMBER.get();
        NAMED.set("set by " + slot);
        sleep(1);
        String named = NAMED.get();
        LOG.get().append(named).append(';');
        OWN_NUMBER.remove();
        Integer removed = OWN_NUMBER.get();
        NAMED.remove();
        String renewed = NAMED.get();
        String inherited = CONTEXT.get();
        CONTEXT.set("worker " + slot);
        String childSaw = slot % CHILD_EVERY == 0 ? startChildAndJoin(slot) : "no child";
        return ownNumber + "|" + initialName + "|" + LOG.get() + "|" + removed + "|" + renewed + "|" + inherited
                + "|" + CONTEXT.get() + "|" + childSaw;
    }

    static String expected(int slot) {
        String childSaw = slot % CHILD_EVERY == 0
                ? "worker " + slot + "/child, null, initial of child-" + slot + ", 0"
                : "no child";
        return slot + "|initial of worker-" + slot + "|" + slot + ";set by " + slot + ";|null|initial of worker-"
                + slot + "|root/child|worker " + slot + (slot % CHILD_EVERY == 0 ? ", changed after the child" : "")
                + "|" + childSaw;
    }

    /** Starts a child that reads every thread-local after a sleep, changes the inherited value, joins the child. */
    static String startChildAndJoin(int slot) {
        String[] seen = new String[1];
        Thread child = new Thread(() -> {
            sleep(2);
            seen[0] = CONTEXT.get() + ", " + OWN_NUMBER.get() + ", " + NAMED.get() + ", " + LOG.get().length();
        }, "child-" + slot);
        CONTEXT.set("worker " + slot + ", changed after the child");
        child.start();
        try {
            child.join();
        } catch (InterruptedException exception) {
            throw new IllegalStateException("interrupted", exception);
        }
        return seen[0];
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException exception) {
            throw new IllegalStateException("interrupted", exception);
        }
    }
}
