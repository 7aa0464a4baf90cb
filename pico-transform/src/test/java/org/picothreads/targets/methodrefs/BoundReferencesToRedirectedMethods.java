package org.picothreads.targets.methodrefs;

import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/**
 * Method references whose receiver is bound ({@code worker::isAlive}) to methods the transformer redirects to static
 * runtime methods taking the receiver as a supertype (Thread's final {@code isAlive} and {@code join}), the receiver
 * typed as a subclass of Thread; and one not bound ({@code Worker::isAlive}). Before, the bound ones failed to link
 * (LambdaConversionException: the captured receiver's type must be the redirect's parameter type exactly).
 */
public class BoundReferencesToRedirectedMethods {
    /** A thread class of the program's own, so that the references' receivers are typed as a subclass of Thread. */
    static final class Worker extends Thread {
        @Override
        public void run() {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Thread's {@code join()} as a function of its own, since it throws InterruptedException. */
    interface Joiner {
        void join() throws InterruptedException;
    }

    public static String run() throws Exception {
        StringBuilder lines = new StringBuilder();
        Thread thread = new Thread(() -> {
            try {
                observe(lines);
            } catch (Exception e) {
                lines.append("failed: ").append(e);
            }
        });
        thread.start();
        thread.join();
        return lines.toString();
    }

    private static void observe(StringBuilder lines) throws InterruptedException {
        Worker worker = new Worker();
        BooleanSupplier alive = worker::isAlive;
        Joiner joiner = worker::join;
        Predicate<Worker> aliveOf = Worker::isAlive;
        lines.append("before start: ").append(alive.getAsBoolean()).append('\n');
        worker.start();
        lines.append("started: ").append(alive.getAsBoolean()).append(' ').append(aliveOf.test(worker)).append('\n');
        joiner.join();
        lines.append("joined: ").append(alive.getAsBoolean()).append(' ').append(aliveOf.test(worker)).append('\n');
    }
}
