package org.picothreads.transform.report;

import java.util.List;
import java.util.Map;

/**
 * The whole account of one transformation run: one entry per class that was read, and why each called method at
 * a suspension point can suspend.
 *
 * @param classes        the class reports, in input order
 * @param blockingChains for each method called at a suspension point ({@code owner.name+descriptor}, as
 *                       {@link SuspensionPoint#target} names it), the shortest chain of calls by which it reaches a
 *                       blocking primitive: the called method, each method entered on the way, and the primitive
 */
public record TransformReport(List<ClassReport> classes, Map<String, List<String>> blockingChains) {
    /** A report without chains (a run that rewrote nothing, or a report put together by hand). */
    public TransformReport(List<ClassReport> classes) {
        this(classes, Map.of());
    }
}
