package example;

/** A constructor that sleeps: it cannot be captured, so the sleep blocks in place and pins its thread. */
public final class Pinned {
    private final long createdAt;

    public Pinned() throws InterruptedException {
        Thread.sleep(10);
        createdAt = System.nanoTime();
    }

    public long createdAt() {
        return createdAt;
    }

    public static void main(String[] args) throws InterruptedException {
        Thread thread = new Thread(() -> {
            try {
                System.out.println(new Pinned().createdAt());
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
        });
        thread.start();
        thread.join();
    }
}
