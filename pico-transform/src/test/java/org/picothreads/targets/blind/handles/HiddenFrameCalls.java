package org.picothreads.targets.blind.handles;

import java.lang.invoke.CallSite;
import java.lang.invoke.LambdaMetafactory;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandleProxies;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Proxy;
import java.util.function.IntUnaryOperator;
import java.util.stream.IntStream;

/**
 * Blocking calls reached through frames that the analysis cannot follow and that the JVM hides or generates:
 * {@code MethodHandle.invokeExact}, {@code invoke} and {@code invokeWithArguments} (LambdaForm frames, hidden),
 * combinators that run code around their target ({@code filterReturnValue}, {@code foldArguments}), a
 * {@code MethodHandleProxies} instance, a {@code java.lang.reflect.Proxy}, {@code Constructor.newInstance}, and an
 * object made by LambdaMetafactory at run time, called directly and by JDK code. Each counts how often the code around the blocking call ran, and
 * each catches Throwable around it, so that a capture signal escaping to user code, or a frame run twice, shows in
 * the result; each must block in place (pin) and give the same result as on platform threads.
 */
public final class HiddenFrameCalls {
    private static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();
    /** How often code around a blocking call ran, by scenario. */
    private static final int[] ROUNDS = new int[10];

    private HiddenFrameCalls() {
    }

    /** Sleeps, then doubles. */
    public static int napTwice(int value) {
        try {
            Thread.sleep(1);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
        return value * 2;
    }

    /** A combinator's filter: counts its calls. */
    static int countedFilter(int value) {
        ROUNDS[3]++;
        return value + 1;
    }

    /** A combinator's folder: counts its calls. */
    static int countedFolder(int value) {
        ROUNDS[4]++;
        return value;
    }

    /** A class whose constructor sleeps, made by reflection. */
    public static final class SlowlyMade {
        final int value;

        public SlowlyMade(int value) {
            this.value = napTwice(value);
        }
    }

    public static String run() throws Exception {
        java.util.Arrays.fill(ROUNDS, 0);
        String[] results = new String[11];
        MethodHandle nap = LOOKUP.findStatic(HiddenFrameCalls.class, "napTwice",
                MethodType.methodType(int.class, int.class));
        Runnable[] scenarios = {
            () -> results[0] = guarded(0, () -> "invokeExact " + (int) nap.invokeExact(1)),
            () -> results[1] = guarded(1, () -> "invoke " + nap.invoke(Integer.valueOf(2))),
            () -> results[2] = guarded(2, () -> "invokeWithArguments " + nap.invokeWithArguments(3)),
            () -> results[3] = guarded(3, () -> "filterReturnValue "
                    + (int) MethodHandles.filterReturnValue(nap, LOOKUP.findStatic(HiddenFrameCalls.class,
                            "countedFilter", MethodType.methodType(int.class, int.class))).invokeExact(4)),
            () -> results[4] = guarded(4, () -> "foldArguments "
                    + (int) MethodHandles.foldArguments(MethodHandles.dropArguments(nap, 0, int.class),
                            LOOKUP.findStatic(HiddenFrameCalls.class, "countedFolder",
                                    MethodType.methodType(int.class, int.class))).invokeExact(5)),
            () -> results[5] = guarded(5, () -> "MethodHandleProxies "
                    + MethodHandleProxies.asInterfaceInstance(IntUnaryOperator.class, nap).applyAsInt(6)),
            () -> results[6] = guarded(6, () -> "Proxy " + ((IntUnaryOperator) Proxy.newProxyInstance(
                    HiddenFrameCalls.class.getClassLoader(), new Class<?>[] {IntUnaryOperator.class},
                    (proxy, method, arguments) -> napTwice((Integer) arguments[0]))).applyAsInt(7)),
            () -> results[7] = guarded(7, () -> "Constructor.newInstance "
                    + SlowlyMade.class.getConstructor(int.class).newInstance(8).value),
            () -> results[8] = guarded(8, () -> "LambdaMetafactory at run time "
                    + madeAtRunTime(nap).applyAsInt(9)),
            () -> results[9] = guarded(9, () -> "LambdaMetafactory at run time, called by IntStream.map "
                    + IntStream.of(10).map(madeAtRunTime(nap)).sum()),
        };
        Thread[] threads = new Thread[scenarios.length + 1];
        for (int index = 0; index < scenarios.length; index++) {
            threads[index] = new Thread(scenarios[index]);
        }
        threads[scenarios.length] = new Thread(() -> {
            int naps = 0;
            for (int round = 0; round < 5; round++) {
                naps += napTwice(1) / 2;
            }
            results[10] = "an ordinary sleeper napped " + naps + " times";
        });
        for (Thread thread : threads) {
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        StringBuilder text = new StringBuilder(String.join("\n", results));
        text.append("\nrounds around the blocking calls:");
        for (int rounds : ROUNDS) {
            text.append(' ').append(rounds);
        }
        return text.toString();
    }

    /** A call that may throw anything, as a method handle's invoke may. */
    interface Scenario {
        String call() throws Throwable;
    }

    /** Runs a scenario once, counting the run and turning whatever it throws, the capture signal included, to text. */
    static String guarded(int index, Scenario scenario) {
        ROUNDS[index]++;
        try {
            return scenario.call();
        } catch (Throwable thrown) {
            return "caught " + thrown;
        }
    }

    /** An IntUnaryOperator spun by LambdaMetafactory at run time for napTwice, not by an invokedynamic instruction. */
    static IntUnaryOperator madeAtRunTime(MethodHandle nap) throws Throwable {
        CallSite site = LambdaMetafactory.metafactory(LOOKUP, "applyAsInt", MethodType.methodType(IntUnaryOperator.class),
                MethodType.methodType(int.class, int.class), nap, MethodType.methodType(int.class, int.class));
        return (IntUnaryOperator) site.getTarget().invokeExact();
    }
}
