package org.picothreads.targets.forgery.victim;

import java.util.List;
import org.picothreads.targets.forgery.Forger;

/**
 * A victim thread that suspends over and over three frames deep, summing as it goes, while another thread has a
 * hand-written class that was not rewritten ({@link Forger}) try, between the victim's suspensions, to reach the
 * victim's saved activations, set the restoring hint and read the caller token. Every attempt must be refused with
 * a clear error, the same in every round, and the victim must give the same sum as on platform threads, though it
 * hands over a forged outcome itself after each sleep.
 */
public final class ForgedResumes {
    static final String VICTIM_KEY = "org/picothreads/targets/forgery/victim/ForgedResumes.descend(II)I";
    private static final int ROUNDS = 20;

    private ForgedResumes() {
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
            List<String> first = Forger.attack(ForgedResumes.class, VICTIM_KEY);
            int alike = 1;
            for (int round = 1; round < ROUNDS; round++) {
                nap();
                if (Forger.attack(ForgedResumes.class, VICTIM_KEY).equals(first)) {
                    alike++;
                }
            }
            attacks[0] = String.join("\n", first) + "\n" + alike + " of " + ROUNDS + " rounds met the same";
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
            Forger.handOverForged();
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
