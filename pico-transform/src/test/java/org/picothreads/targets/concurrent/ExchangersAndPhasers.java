package org.picothreads.targets.concurrent;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Exchanger;
import java.util.concurrent.Phaser;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Exchanger and Phaser: two threads swap buffers for several rounds, a thread exchanges with the calling (platform)
 * thread, a timed exchange times out and an interrupted one throws; threads advance a phaser with an onAdvance
 * override through three phases while the caller awaits each advance, a party deregisters, a tiered phaser
 * advances through its children, a timed await times out, an interrupted await throws, and forced termination
 * releases a waiter.
 */
public final class ExchangersAndPhasers {
    private ExchangersAndPhasers() {
    }

    public static String run() throws Exception {
        StringBuilder log = new StringBuilder();
        exchangers(log);
        phasers(log);
        return log.toString();
    }

    private static void exchangers(StringBuilder log) throws Exception {
        Exchanger<List<Integer>> exchanger = new Exchanger<>();
        List<String> filled = new ArrayList<>();
        List<String> emptied = new ArrayList<>();
        Thread filler = new Thread(() -> {
            try {
                List<Integer> buffer = new ArrayList<>();
                for (int round = 0; round < 4; round++) {
                    for (int value = 0; value <= round; value++) {
                        buffer.add(round * 10 + value);
                    }
                    Thread.sleep(1);
                    filled.add(String.valueOf(buffer));
                    buffer = exchanger.exchange(buffer);
                }
            } catch (InterruptedException exception) {
                throw new IllegalStateException(exception);
            }
        });
        Thread emptier = new Thread(() -> {
            try {
                List<Integer> buffer = new ArrayList<>();
                for (int round = 0; round < 4; round++) {
                    buffer = exchanger.exchange(buffer);
                    emptied.add(String.valueOf(buffer));
                    buffer.clear();
                }
            } catch (InterruptedException exception) {
                throw new IllegalStateException(exception);
            }
        });
        filler.start();
        emptier.start();
        filler.join();
        emptier.join();
        log.append("exchanged buffers: filled ").append(filled).append(", emptied ").append(emptied)
                .append(", same ").append(filled.equals(emptied));

        Exchanger<String> withCaller = new Exchanger<>();
        StringBuilder got = new StringBuilder();
        Thread partner = new Thread(() -> {
            try {
                got.append(withCaller.exchange("from the thread"));
                got.append(", null became ").append(withCaller.exchange(null));
            } catch (InterruptedException exception) {
                throw new IllegalStateException(exception);
            }
        });
        partner.start();
        Thread.sleep(5);
        String fromThread = withCaller.exchange("from the caller");
        String fromNull = withCaller.exchange("not null", 1, TimeUnit.MINUTES);
        partner.join();
        log.append("\nwith the caller: caller got ").append(fromThread).append(" and ").append(fromNull)
                .append(", thread got ").append(got);

        Exchanger<String> lonely = new Exchanger<>();
        StringBuilder alone = new StringBuilder();
        AtomicInteger stage = new AtomicInteger();
        Thread impatient = new Thread(() -> {
            try {
                alone.append(lonely.exchange("nobody", 10, TimeUnit.MILLISECONDS));
            } catch (TimeoutException exception) {
                alone.append("timed out");
            } catch (InterruptedException exception) {
                alone.append("interrupted");
            }
            stage.set(1);
            try {
                lonely.exchange("anybody");
                alone.append(", exchanged");
            } catch (InterruptedException exception) {
                alone.append(", interrupted, flag ").append(Thread.currentThread().isInterrupted());
            }
        });
        impatient.start();
        awaitStage(stage, 1);
        Thread.sleep(5);
        impatient.interrupt();
        impatient.join();
        log.append("\nalone: ").append(alone);
    }

    private static void phasers(StringBuilder log) throws Exception {
        List<String> advances = new ArrayList<>();
        Phaser phaser = new Phaser(1) {
            @Override
            protected boolean onAdvance(int phase, int registeredParties) {
                synchronized (advances) {
                    advances.add(phase + ":" + registeredParties);
                }
                return phase >= 2;
            }
        };
        AtomicInteger work = new AtomicInteger();
        List<List<String>> phasesSeen = new ArrayList<>();
        Thread[] parties = new Thread[3];
        for (int index = 0; index < parties.length; index++) {
            int slot = index;
            List<String> seen = new ArrayList<>();
            phasesSeen.add(seen);
            phaser.register();
            parties[index] = new Thread(() -> {
                try {
                    for (int round = 0; round < 3; round++) {
                        Thread.sleep(1 + slot);
                        work.incrementAndGet();
                        seen.add(phaseName(phaser.arriveAndAwaitAdvance()));
                    }
                } catch (InterruptedException exception) {
                    throw new IllegalStateException(exception);
                }
            });
            parties[index].start();
        }
        List<String> callerSaw = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
            callerSaw.add(phaseName(phaser.awaitAdvance(phaser.arrive())));
        }
        for (Thread party : parties) {
            party.join();
        }
        log.append("\nphaser: advances ").append(advances).append(", work ").append(work.get())
                .append(", caller saw ").append(callerSaw).append(", terminated ").append(phaser.isTerminated())
                .append(", parties saw ").append(phasesSeen);

        Phaser leaving = new Phaser(3);
        StringBuilder left = new StringBuilder();
        Thread stayer = new Thread(() -> left.append("stayer at ").append(leaving.arriveAndAwaitAdvance()));
        stayer.start();
        Thread.sleep(5);
        leaving.arriveAndDeregister();
        Thread.sleep(5);
        boolean stillWaiting = stayer.isAlive();
        leaving.arriveAndDeregister();
        stayer.join();
        left.append(", waited for both ").append(stillWaiting).append(", parties ")
                .append(leaving.getRegisteredParties());
        log.append("\nderegistering: ").append(left);

        Phaser root = new Phaser();
        Phaser left2 = new Phaser(root, 2);
        Phaser right = new Phaser(root, 1);
        List<Thread> tiered = new ArrayList<>();
        AtomicInteger tieredSum = new AtomicInteger();
        for (Phaser child : List.of(left2, left2, right)) {
            Thread thread = new Thread(() -> {
                for (int round = 0; round < 3; round++) {
                    tieredSum.addAndGet(child.arriveAndAwaitAdvance());
                }
            });
            tiered.add(thread);
            thread.start();
        }
        for (Thread thread : tiered) {
            thread.join();
        }
        log.append("\ntiered: sum of phases ").append(tieredSum.get()).append(", root phase ")
                .append(root.getPhase()).append(", children ").append(left2.getPhase()).append(' ')
                .append(right.getPhase()).append(", root parties ").append(root.getRegisteredParties());

        Phaser stuck = new Phaser(2);
        StringBuilder awaited = new StringBuilder();
        AtomicInteger stage = new AtomicInteger();
        Thread waiter = new Thread(() -> {
            int phase = stuck.arrive();
            try {
                stuck.awaitAdvanceInterruptibly(phase, 10, TimeUnit.MILLISECONDS);
                awaited.append("advanced");
            } catch (TimeoutException exception) {
                awaited.append("timed out");
            } catch (InterruptedException exception) {
                awaited.append("interrupted");
            }
            stage.set(1);
            try {
                stuck.awaitAdvanceInterruptibly(phase);
                awaited.append(", advanced");
            } catch (InterruptedException exception) {
                awaited.append(", interrupted, flag ").append(Thread.currentThread().isInterrupted());
            }
            stage.set(2);
            awaited.append(", a past phase returns at once ").append(stuck.awaitAdvance(phase + 1) == phase);
            awaited.append(", uninterruptible await ended by termination ").append(stuck.awaitAdvance(phase) < 0)
                    .append(", flag kept ").append(Thread.currentThread().isInterrupted());
        });
        waiter.start();
        awaitStage(stage, 1);
        Thread.sleep(5);
        waiter.interrupt();
        awaitStage(stage, 2);
        Thread.sleep(5);
        waiter.interrupt();
        Thread.sleep(5);
        stuck.forceTermination();
        waiter.join();
        log.append("\nawaits: ").append(awaited).append(", terminated ").append(stuck.isTerminated());
    }

    /** Waits, sleeping, until the thread under test has reached {@code wanted}. */
    private static void awaitStage(AtomicInteger stage, int wanted) throws InterruptedException {
        while (stage.get() < wanted) {
            Thread.sleep(1);
        }
    }

    /**
     * A phase as the program prints it: the last arriving party gets the next phase (3) and every other the
     * negative phase of the terminated phaser, and which party arrives last varies from run to run.
     */
    private static String phaseName(int phase) {
        return phase < 0 || phase == 3 ? "end" : String.valueOf(phase);
    }
}
