package org.picothreads.targets.threads;

/**
 * What a thread says about itself and what others see: names given to the constructor, changed before start
 * and changed by the thread itself; the daemon flag set before start, refused on a live thread and inherited
 * by threads created inside; priorities set and inherited; states NEW and TERMINATED; isAlive; and the refusal
 * to start a thread twice. Each thread sleeps before it reports.
 */
public final class ThreadProperties {
    /** Lets the gated thread end; written by the thread running {@link #run}. */
    private volatile boolean released;

    private ThreadProperties() {
    }

    public static String run() throws Exception {
        return new ThreadProperties().describeAll();
    }

    private String describeAll() throws InterruptedException {
        String[] results = new String[4];
        Thread named = new Thread(() -> {
            sleep(1);
            results[0] = "inside: " + Thread.currentThread().getName();
            Thread.currentThread().setName("renamed by itself");
        }, "given-name");
        Thread renamed = new Thread(() -> {
            sleep(1);
            results[1] = "inside: " + Thread.currentThread().getName();
        }, "before-rename");
        renamed.setName("renamed-before-start");

        Thread daemon = new Thread(() -> {
            sleep(1);
            Thread child = new Thread(() -> sleep(1));
            results[2] = "daemon inside " + Thread.currentThread().isDaemon() + ", child inherits " + child.isDaemon()
                    + ", priority " + Thread.currentThread().getPriority() + ", child priority " + child.getPriority();
            child.start();
            join(child);
        }, "daemon");
        daemon.setDaemon(true);
        daemon.setPriority(Thread.NORM_PRIORITY - 2);

        Thread ordinary = new Thread(() -> {
            sleep(1);
            Thread child = new Thread(() -> sleep(1));
            results[3] = "ordinary daemon " + Thread.currentThread().isDaemon()
                    + ", child inherits " + child.isDaemon();
        });

        StringBuilder report = new StringBuilder();
        report.append("states before start: ").append(named.getState()).append(' ').append(named.isAlive())
                .append(", daemon flags ").append(daemon.isDaemon()).append(' ').append(ordinary.isDaemon())
                .append('\n');
        Thread[] threads = {named, renamed, daemon, ordinary};
        for (Thread thread : threads) {
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        report.append(String.join("\n", results)).append('\n');
        report.append("names after: ").append(named.getName()).append(", ").append(renamed.getName()).append('\n');
        report.append("states after join: ").append(named.getState()).append(' ').append(named.isAlive()).append('\n');

        Thread gated = new Thread(() -> {
            while (!released) {
                sleep(1);
            }
        }, "gated");
        gated.start();
        try {
            gated.setDaemon(true);
            report.append("set daemon on a live thread");
        } catch (IllegalThreadStateException exception) {
            report.append("setDaemon refused on a live thread");
        }
        try {
            gated.start();
            report.append(", started twice");
        } catch (IllegalThreadStateException exception) {
            report.append(", second start refused");
        }
        released = true;
        gated.join();
        report.append(", gated daemon ").append(gated.isDaemon()).append(", alive ").append(gated.isAlive());
        return report.toString();
    }

    static void join(Thread thread) {
        try {
            thread.join();
        } catch (InterruptedException exception) {
            throw new IllegalStateException("interrupted", exception);
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException exception) {
            throw new IllegalStateException("interrupted", exception);
        }
    }
}
