package org.picothreads.transform.report;

import java.util.List;

/**
 * A call site at which a rewritten method can suspend.
 *
 * @param index  the resume point index within the method
 * @param line   the source line, or -1 when the class has no line numbers
 * @param target the called method, {@code owner.name+descriptor}
 * @param saved  the values saved there when the thread suspends
 */
public record SuspensionPoint(int index, int line, String target, List<SavedValue> saved) {
}
