package org.picothreads.transform.report;

import java.util.List;

/**
 * What happened to one method that can reach a blocking call.
 *
 * @param name             the method name
 * @param descriptor       the method descriptor
 * @param rewritten        true when the method was rewritten to capture and restore its frame
 * @param reason           why it was left untransformed (null when rewritten)
 * @param suspensionPoints the call sites at which it can suspend
 * @param pinnedCallSites  the call sites that may block but will pin the thread instead
 */
public record MethodReport(String name, String descriptor, boolean rewritten, String reason,
        List<SuspensionPoint> suspensionPoints, List<PinnedCallSite> pinnedCallSites) {
}
