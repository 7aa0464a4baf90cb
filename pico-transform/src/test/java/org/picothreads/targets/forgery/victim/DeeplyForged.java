package org.picothreads.targets.forgery.victim;

import java.util.List;
import org.picothreads.targets.forgery.DeepReflectionForger;

/**
 * A victim thread that suspends over and over three frames deep, summing as it goes, while another thread, between
 * the victim's suspensions, calls every member the transformer added to this class by deep reflection
 * ({@link DeepReflectionForger}). Every call must be refused with a clear error, the same in every round, and the
 * victim must give the same sum as on platform threads. As compiled, the class has no such member.
 */
public final class DeeplyForged {
    private static final int ROUNDS = 20;

    private DeeplyForged() {
    }

    public static String run() throws Exception {
        int[] sum = new int[1];
        String[] attacks = new String[1];
        Thread victim = new Thread(() -> {
            for (int round = 0; round < ROUNDS; round++) {
                sum[0] += descend(3, round); // suspends
            }
        });
        Thread attacker = new Thread(() -> {
            List<String> first = DeepReflectionForger.attack(DeeplyForged.class, null);
            int alike = 1;
            for (int round = 1; round < ROUNDS; round++) {
                nap();
                if (DeepReflectionForger.attack(DeeplyForged.class, null).equals(first)) {
                    alike++;
                }
            }
            attacks[0] = (first.isEmpty() ? "" : String.join("\n", first) + "\n") + alike + " of " + ROUNDS
                    + " rounds met the same";
        });
        victim.start();
        attacker.start();
        victim.join();
        attacker.join();
        return "victim sum " + sum[0] + "\n" + attacks[0];
    }

    /** Sums {@code value} and each depth on the way down, sleeping at the bottom. */
    static int descend(int depth, int value) {
        if (depth == 0) {
            nap();
            return value;
        }
        int below = descend(depth - 1, value + 1);
        return below + depth;
    }

    static void nap() {
        try {
            Thread.sleep(1);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
