package org.picothreads.transform.report;

/**
 * A call that may block but cannot be captured, so a thread blocking through it blocks for real.
 *
 * @param line   the source line, or -1 when unknown
 * @param target the called method, {@code owner.name+descriptor}
 * @param reason why the call site cannot suspend, in words
 */
public record PinnedCallSite(int line, String target, String reason) {
}
