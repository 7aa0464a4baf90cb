package org.picothreads.targets.carriers;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Exchanger;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Twenty pairs of threads, each pair with an {@code Exchanger} of its own, exchange in rounds: in each round every
 * thread counts a ready latch down and waits for a go latch that the calling thread counts down once all are ready,
 * so that both threads of a pair are woken at once and reach their exchanger at about the same moment (as the
 * JSR-166 TCK's {@code ExchangerTest.testReplacementAfterExchange} does). Each thread offers a number made of its side
 * and the round and must receive its partner's number for the same round. Neither may wait without being found by
 * the other: both waiting would hold the pair until the wait limit, after which the pair stops exchanging.
 */
public final class ExchangerStress {
    private static final int PAIRS = 20;
    private static final int ROUNDS = 250;
    /** How long an exchange waits before its thread gives up exchanging. */
    private static final long WAIT_LIMIT_SECONDS = 2;
    /** How long a latch wait lasts before the program gives up on the round. */
    private static final long LATCH_LIMIT_SECONDS = 20;

    private ExchangerStress() {
    }

    public static String run() throws Exception {
        int threadCount = 2 * PAIRS;
        CountDownLatch[] ready = new CountDownLatch[ROUNDS];
        CountDownLatch[] go = new CountDownLatch[ROUNDS];
        for (int round = 0; round < ROUNDS; round++) {
            ready[round] = new CountDownLatch(threadCount);
            go[round] = new CountDownLatch(1);
        }
        int[] partnerItems = new int[threadCount];
        long[] sums = new long[threadCount];
        boolean[] timedOut = new boolean[threadCount];
        Thread[] threads = new Thread[threadCount];
        for (int pair = 0; pair < PAIRS; pair++) {
            Exchanger<Integer> exchanger = new Exchanger<>();
            for (int side = 0; side < 2; side++) {
                int number = 2 * pair + side;
                int mine = side;
                threads[number] = new Thread(() -> {
                    for (int round = 0; round < ROUNDS; round++) {
                        try {
                            ready[round].countDown();
                            if (!go[round].await(LATCH_LIMIT_SECONDS, TimeUnit.SECONDS) || timedOut[number]) {
                                continue;
                            }
                            int received = exchanger.exchange(2 * round + mine, WAIT_LIMIT_SECONDS, TimeUnit.SECONDS);
                            if (received == 2 * round + 1 - mine) {
                                partnerItems[number]++;
                            }
                            sums[number] += received;
                        } catch (TimeoutException | InterruptedException exception) {
                            timedOut[number] = true;
                        }
                    }
                });
            }
        }
        for (Thread thread : threads) {
            thread.start();
        }
        int roundsNotReady = 0;
        for (int round = 0; round < ROUNDS; round++) {
            if (!ready[round].await(LATCH_LIMIT_SECONDS, TimeUnit.SECONDS)) {
                roundsNotReady++;
            }
            go[round].countDown();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        int received = 0;
        long checksum = 0;
        int failed = 0;
        for (int number = 0; number < threadCount; number++) {
            received += partnerItems[number];
            checksum += sums[number];
            failed += timedOut[number] ? 1 : 0;
        }
        return "pairs " + PAIRS + ", rounds " + ROUNDS + ", exchanges that gave the partner's item of the same round "
                + received + ", checksum " + checksum + ", threads whose exchange timed out " + failed
                + ", rounds not ready in time " + roundsNotReady;
    }
}
