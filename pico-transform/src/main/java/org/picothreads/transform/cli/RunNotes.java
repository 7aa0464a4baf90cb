package org.picothreads.transform.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.picothreads.transform.report.ClassReport;
import org.picothreads.transform.report.MethodReport;
import org.picothreads.transform.report.PinnedCallSite;
import org.picothreads.transform.report.SharedMonitorRegion;
import org.picothreads.transform.report.TransformReport;

/**
 * The warnings a run prints about what will not run as PicoThreads expect: an input without classes, classes and
 * methods left as they were, call sites that block in place (pinned), and synchronized regions that can suspend on an object JDK
 * code also locks, each counted and the first few named with the reason.
 */
final class RunNotes {
    private static final String WARNING = TransformCommand.WARNING;
    private static final String ERROR = TransformCommand.ERROR;

    private RunNotes() {
    }

    /** The warning lines for a run; none when every blocking call site can suspend. */
    static List<String> of(TransformReport report, boolean noClasses, Path input, Path reportFile) {
        List<String> lines = new ArrayList<>();
        if (noClasses) {
            lines.add(WARNING + input + " holds no class files; the output is a copy of its other files");
        }
        List<String> tooLarge = new ArrayList<>();
        List<String> untransformed = new ArrayList<>();
        List<String> pinned = new ArrayList<>();
        List<String> shared = new ArrayList<>();
        for (ClassReport classReport : report.classes()) {
            String className = classReport.className().replace('/', '.');
            if (classReport.leftUnrewritten() != null) {
                tooLarge.add(className + ": " + classReport.leftUnrewritten());
            }
            for (MethodReport method : classReport.methods()) {
                String methodName = className + "." + method.name() + method.descriptor();
                if (!method.rewritten()) {
                    untransformed.add(methodName + ": "
                            + (method.reason() == null ? "no reason given" : method.reason()));
                }
                for (PinnedCallSite site : method.pinnedCallSites()) {
                    pinned.add(methodName + (site.line() < 0 ? " (line unknown)" : " line " + site.line()) + ": calls "
                            + site.target() + ": " + site.reason());
                }
                for (SharedMonitorRegion region : method.sharedMonitorRegions()) {
                    shared.add(methodName + (region.line() < 0 ? " (line unknown)" : " line " + region.line())
                            + ": synchronized on " + region.monitor());
                }
            }
        }
        String everyOne = reportFile == null ? "--report FILE lists every one" : "the report " + reportFile
                + " lists every one";
        if (!tooLarge.isEmpty()) {
            lines.add(WARNING + TransformCommand.count(tooLarge.size(), "class is left as it was",
                    "classes are left as they were") + " (not rewritten), so the blocking calls under their methods"
                    + " block in place (pinned):");
            addFirst(lines, tooLarge, everyOne);
        }
        if (!untransformed.isEmpty()) {
            lines.add(WARNING + TransformCommand.count(untransformed.size(), "method is left as it was",
                    "methods are left as they were") + ", so the blocking calls in them block in place (pinned):");
            addFirst(lines, untransformed, everyOne);
        }
        if (!pinned.isEmpty()) {
            lines.add(WARNING + TransformCommand.count(pinned.size(), "call site blocks", "call sites block")
                    + " in place (pinned) instead of suspending:");
            addFirst(lines, pinned, everyOne);
        }
        if (!shared.isEmpty()) {
            lines.add(WARNING + TransformCommand.count(shared.size(), "synchronized region", "synchronized regions")
                    + " can suspend holding the monitor of an object that JDK code also locks; the JDK's own"
                    + " synchronized methods on it do not wait for a suspended holder:");
            addFirst(lines, shared, everyOne);
        }
        return lines;
    }

    /** The same lines as errors, for a run that {@code --strict} stops, with a last line saying so. */
    static List<String> asStrictFailure(List<String> notes) {
        List<String> lines = new ArrayList<>();
        for (String note : notes) {
            lines.add(note.startsWith(WARNING) ? ERROR + note.substring(WARNING.length()) : note);
        }
        lines.add(ERROR + "--strict is given, so nothing was written");
        return lines;
    }

    private static void addFirst(List<String> lines, List<String> items, String everyOne) {
        items.stream().limit(TransformCommand.NAMED_ON_CONSOLE).forEach(item -> lines.add("  " + item));
        if (items.size() > TransformCommand.NAMED_ON_CONSOLE) {
            lines.add("  ... and " + (items.size() - TransformCommand.NAMED_ON_CONSOLE) + " more; " + everyOne);
        }
    }
}
