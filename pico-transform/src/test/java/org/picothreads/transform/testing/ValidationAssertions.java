package org.picothreads.transform.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.Callable;

/**
 * The validation tests' one assertion: a program gives the same result on PicoThreads (transformed) as on
 * platform threads (as compiled), and the transformed run really ran on PicoThreads and really suspended.
 * A failure message carries what the transformed run wrote to System.err, where a thread that died of an
 * uncaught exception left its stack trace.
 */
public final class ValidationAssertions {
    private ValidationAssertions() {
    }

    /**
     * Runs a target as compiled and transformed and asserts that both results are equal, that the transformed
     * run started PicoThreads, that they suspended, and that no blocking call had to block the carrier for real
     * (pin): every blocking call of these targets sits where it can be captured. Every validation target blocks
     * (sleeps, joins a thread that is still running, or yields), so a transformed run that never suspended ran
     * its blocking calls for real.
     */
    public static void assertSameResult(Class<?> target) throws Exception {
        assertSameResult(target.getName(),
                () -> TargetRunner.runPlain(target),
                () -> TargetRunner.runTransformed(target),
                Pinning.FORBIDDEN);
    }

    /**
     * Like {@link #assertSameResult(Class)}, for a target that also blocks where no capture is possible (under a
     * JDK frame, or in a constructor), so that some of its blocking calls may pin instead of suspending.
     */
    public static void assertSameResultAllowingPinnedBlocks(Class<?> target) throws Exception {
        assertSameResult(target.getName(),
                () -> TargetRunner.runPlain(target),
                () -> TargetRunner.runTransformed(target),
                Pinning.ALLOWED);
    }

    /**
     * The assertion of {@link #assertSameResult(Class)} for a target whose classes the test generated:
     * {@code plainTarget} was loaded as generated, {@code transformedTarget} from a
     * {@link TransformingClassLoader}.
     */
    public static void assertSameResult(Class<?> plainTarget, Class<?> transformedTarget) throws Exception {
        assertSameResult(plainTarget.getName(),
                () -> TargetRunner.run(plainTarget),
                () -> TargetRunner.run(transformedTarget),
                Pinning.FORBIDDEN);
    }

    /**
     * The assertion of {@link #assertSameResult(Class)} for any pair of runs: {@code plainRun} runs the program
     * as compiled, {@code transformedRun} runs its transformed copy; both are called from the calling thread.
     *
     * @param programName names the program in failure messages
     * @param pinning     whether some blocking calls may pin instead of suspending
     */
    public static void assertSameResult(String programName, Callable<String> plainRun, Callable<String> transformedRun,
            Pinning pinning) throws Exception {
        String plain = WatchedRun.run(programName + " (untransformed)", plainRun).result();
        RuntimeStatistics before = RuntimeStatistics.now();
        WatchedRun transformed = WatchedRun.run(programName, transformedRun);
        RuntimeStatistics growth = RuntimeStatistics.now().since(before);
        String errorOutput = transformed.errorOutput().isEmpty()
                ? ""
                : "\nSystem.err during the transformed run:\n" + transformed.errorOutput();
        assertEquals(plain, transformed.result(), () -> programName + " gives a different result on PicoThreads"
                + " (actual) than on platform threads (expected)" + errorOutput);
        assertTrue(growth.threadsStarted() > 0,
                () -> programName + " started no PicoThread when transformed: " + growth + errorOutput);
        assertTrue(growth.suspensions() > 0,
                () -> programName + " never suspended a PicoThread when transformed: " + growth + errorOutput);
        if (pinning == Pinning.FORBIDDEN) {
            assertEquals(0, growth.pinnedBlocks(), () -> programName
                    + " blocked the carrier for real (pinned) where it should have suspended: " + growth + errorOutput);
        }
    }

    /** Whether a validated program may block the carrier for real where it cannot be captured. */
    public enum Pinning {
        /** Every blocking call must suspend. */
        FORBIDDEN,
        /** Some blocking calls sit where no capture is possible and may pin. */
        ALLOWED
    }
}
