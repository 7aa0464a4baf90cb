package org.picothreads.piranha;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import org.picothreads.piranha.api.Spawner;

/**
 * The paper's thread pool: a fixed number of platform threads taking tasks from a bounded queue; a task that finds
 * the queue full is discarded.
 */
final class PoolSpawner implements Spawner, AutoCloseable {

    private final BlockingQueue<Runnable> queue;
    private final List<Thread> workers = new ArrayList<>();

    PoolSpawner(int threads, int queueCapacity) {
        queue = new ArrayBlockingQueue<>(queueCapacity);
        for (int index = 0; index < threads; index++) {
            Thread worker = new Thread(this::work, "piranha-pool-" + index);
            worker.setDaemon(true);
            worker.start();
            workers.add(worker);
        }
    }

    @Override
    public boolean start(Runnable task) {
        return queue.offer(task);
    }

    private void work() {
        try {
            while (true) {
                queue.take().run();
            }
        } catch (InterruptedException closed) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        workers.forEach(Thread::interrupt);
    }
}
