package org.picothreads.runtime.internal;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a class rewritten by PicoThreads, listing the methods that can capture and restore their frame.
 * The transformer recognises it to leave the class alone on a second run; the runtime reads it to tell
 * which frames on a carrier's stack can be captured.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Rewritten {
    /** The methods rewritten to capture and restore their frame, each as {@code name+descriptor}. */
    String[] value();

    /**
     * For each method of {@link #value()}, at the same index, the source line of each of its suspension call sites
     * in resume-point order, comma-separated ({@code "12,15"}), -1 where unknown; empty in classes rewritten before
     * lines were recorded. Thread dumps read it to print the line each saved frame stopped at.
     */
    String[] lines() default {};

    /**
     * For each method of {@link #value()}, at the same index, the bytecode offset of each of its suspension call sites,
     * comma-separated: a frame of the method that called a lambda proxy (whose target the analysis may not have seen,
     * as for an object LambdaMetafactory made at run time) is captured only at one of these calls. Empty in classes
     * that follow the protocol by hand, whose calls are all trusted.
     */
    String[] sites() default {};

    /**
     * For each method of {@link #value()}, at the same index, one letter per suspension call site of {@link #sites()},
     * in the same order, saying what the frame check must read of a frame to know it is stopped at that site:
     * {@code 'o'} the bytecode offset alone (no method of the class has a call or constant-pool instruction there that
     * is not a suspension site of its own), {@code 'n'} the method's name and the offset (no method of that name has
     * one), {@code 'd'} the method's descriptor too. Empty in classes rewritten before the keys were recorded, whose
     * frames the check finds by descriptor.
     */
    String[] siteKeys() default {};

    /**
     * The methods that can reach a blocking call but were left without capture code (too large after rewriting, or
     * not analysable because a class is missing), each as {@code name+descriptor}: the frame check never captures
     * through a frame of one of them, so a blocking call below it blocks in place (pins).
     */
    String[] notCapturable() default {};

    /**
     * The capturing methods, each as {@code name+descriptor}, whose continuation the runtime may enter fresh as a new
     * PicoThread's first activation, or a runtime pool's task's ({@link ThreadEntries}): an instance {@code run()V},
     * and the body of a {@code Runnable} or {@code Callable} lambda whose creation links through
     * {@link ThreadEntries#metafactory}. Their continuations keep
     * the entry that runs the method from its start. Empty in classes rewritten before thread entries, whose threads
     * start through their {@code run()} (and walk the stack at their first capture).
     */
    String[] threadEntries() default {};
}
