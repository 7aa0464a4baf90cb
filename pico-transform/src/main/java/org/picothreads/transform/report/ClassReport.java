package org.picothreads.transform.report;

import java.util.List;

/**
 * What the transformer did to one class.
 *
 * @param className        internal name
 * @param source           where the class came from
 * @param changed          whether the class file changed at all
 * @param alreadyTransformed true when the input was already rewritten by PicoThreads and was left alone
 * @param methods          the methods that can reach a blocking call, rewritten or not
 * @param redirectedCalls  how many references to java.lang.Thread were redirected to the runtime
 * @param leftUnrewritten  why a class that needed rewriting was left exactly as it was (its rewrite would not fit in a
 *                         class file), or null
 */
public record ClassReport(String className, String source, boolean changed, boolean alreadyTransformed,
        List<MethodReport> methods, int redirectedCalls, String leftUnrewritten) {

    /** A report of a class that was rewritten, or needed no rewrite. */
    public ClassReport(String className, String source, boolean changed, boolean alreadyTransformed,
            List<MethodReport> methods, int redirectedCalls) {
        this(className, source, changed, alreadyTransformed, methods, redirectedCalls, null);
    }
}
