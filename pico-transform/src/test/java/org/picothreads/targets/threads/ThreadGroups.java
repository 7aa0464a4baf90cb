package org.picothreads.targets.threads;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Thread groups with PicoThreads in them: {@code activeCount}, {@code enumerate} with and without subgroups and
 * into a short array, {@code activeGroupCount}, {@code Thread.activeCount} and {@code Thread.enumerate} from a
 * thread in a subgroup, {@code interrupt} of a group reaching the sleeping threads of its subgroups, and the group
 * of a terminated thread (null).
 */
public final class ThreadGroups {
    private ThreadGroups() {
    }

    public static String run() throws Exception {
        ThreadGroup workers = new ThreadGroup("workers");
        ThreadGroup sub = new ThreadGroup(workers, "sub");
        List<String> interrupted = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int index = 0; index < 3; index++) {
            threads.add(sleeper(workers, "worker-" + index, interrupted));
        }
        for (int index = 0; index < 2; index++) {
            threads.add(sleeper(sub, "sub-" + index, interrupted));
        }
        for (Thread thread : threads) {
            thread.start();
        }
        StringBuilder fromInside = new StringBuilder();
        Thread counter = new Thread(sub, () -> {
            Thread[] listed = new Thread[10];
            int count = Thread.enumerate(listed);
            fromInside.append("Thread.activeCount in sub ").append(Thread.activeCount()).append(", Thread.enumerate ")
                    .append(names(listed, count));
        }, "counter");
        counter.start();
        counter.join();

        StringBuilder log = new StringBuilder();
        log.append(fromInside);
        log.append("\nworkers.activeCount ").append(workers.activeCount()).append(", sub.activeCount ")
                .append(sub.activeCount()).append(", workers.activeGroupCount ").append(workers.activeGroupCount());
        Thread[] all = new Thread[10];
        int count = workers.enumerate(all);
        log.append("\nenumerate ").append(count).append(' ').append(names(all, count));
        Thread[] direct = new Thread[10];
        count = workers.enumerate(direct, false);
        log.append("\nenumerate without subgroups ").append(count).append(' ').append(names(direct, count));
        Thread[] shortArray = new Thread[2];
        log.append("\nenumerate into two places ").append(workers.enumerate(shortArray, true));

        workers.interrupt();
        for (Thread thread : threads) {
            thread.join();
        }
        synchronized (interrupted) {
            interrupted.sort(null);
            log.append("\ninterrupted by the group ").append(interrupted);
        }
        log.append("\nafter the interrupt workers.activeCount ").append(workers.activeCount())
                .append(", group of a terminated thread ").append(counter.getThreadGroup())
                .append(", state ").append(counter.getState());
        return log.toString();
    }

    private static Thread sleeper(ThreadGroup group, String name, List<String> interrupted) {
        return new Thread(group, () -> {
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException exception) {
                synchronized (interrupted) {
                    interrupted.add(Thread.currentThread().getName() + " in " + Thread.currentThread().getThreadGroup()
                            .getName());
                }
            }
        }, name);
    }

    private static String names(Thread[] threads, int count) {
        String[] names = new String[count];
        for (int index = 0; index < count; index++) {
            names[index] = threads[index].getName();
        }
        Arrays.sort(names);
        return Arrays.toString(names);
    }
}
