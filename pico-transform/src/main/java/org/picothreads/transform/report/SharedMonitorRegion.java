package org.picothreads.transform.report;

/**
 * A synchronized region that can suspend on an object that JDK code also locks (a {@code Vector}, a
 * {@code StringBuffer}, the wrapper {@code Collections.synchronizedList} returns, ...): the JDK's own synchronized
 * methods take only the JVM monitor and do not wait for a thread suspended inside the region.
 *
 * @param line    the source line of the region's entry, or -1 when unknown
 * @param monitor the object locked, in words ("a java.util.Vector", "field sample.Registry.names, set from
 *                java.util.Collections.synchronizedList")
 */
public record SharedMonitorRegion(int line, String monitor) {
}
