package org.picothreads.targets.blind.overrides;

import java.util.function.IntUnaryOperator;

/**
 * An override that sleeps, rewritten apart from its callers ({@code blind.unseen}), whose analysis never sees it: it
 * stands for an implementation in another class loader, a class loaded later, or one outside the input.
 */
public final class SleepingStep implements IntUnaryOperator {
    @Override
    public int applyAsInt(int value) {
        try {
            Thread.sleep(1); // suspends here; its callers' frames decide whether the thread may be captured
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
        return value * 10;
    }
}
