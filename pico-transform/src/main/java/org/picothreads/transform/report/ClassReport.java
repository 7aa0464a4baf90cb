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
 */
public record ClassReport(String className, String source, boolean changed, boolean alreadyTransformed,
        List<MethodReport> methods, int redirectedCalls) {
}
