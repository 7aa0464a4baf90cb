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
 * @param sharedMonitorRegions the regions that can suspend on an object JDK code also locks
 */
public record MethodReport(String name, String descriptor, boolean rewritten, String reason,
        List<SuspensionPoint> suspensionPoints, List<PinnedCallSite> pinnedCallSites,
        List<SharedMonitorRegion> sharedMonitorRegions) {

    /** A report with no region on an object JDK code also locks. */
    public MethodReport(String name, String descriptor, boolean rewritten, String reason,
            List<SuspensionPoint> suspensionPoints, List<PinnedCallSite> pinnedCallSites) {
        this(name, descriptor, rewritten, reason, suspensionPoints, pinnedCallSites, List.of());
    }
}
