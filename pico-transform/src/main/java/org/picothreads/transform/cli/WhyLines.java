package org.picothreads.transform.cli;

import java.util.ArrayList;
import java.util.List;
import org.picothreads.transform.report.ClassReport;
import org.picothreads.transform.report.MethodReport;
import org.picothreads.transform.report.PinnedCallSite;
import org.picothreads.transform.report.SuspensionPoint;
import org.picothreads.transform.report.TransformReport;

/**
 * The lines that {@code --why METHOD} prints: for each method of the input that METHOD names ({@code Owner.name},
 * every overload, or {@code Owner.name(descriptor)}, the owner as a binary name), each of its suspension points with
 * the chain of calls by which it reaches a blocking primitive, and each call site that blocks in place with why.
 */
final class WhyLines {
    private WhyLines() {
    }

    static List<String> of(TransformReport report, String method) {
        int parenthesis = method.indexOf('(');
        String qualifiedName = parenthesis < 0 ? method : method.substring(0, parenthesis);
        String descriptor = parenthesis < 0 ? null : method.substring(parenthesis);
        int dot = qualifiedName.lastIndexOf('.');
        if (dot <= 0 || dot == qualifiedName.length() - 1) {
            return List.of(TransformCommand.WARNING + "--why " + method + ": not a method name of the form"
                    + " com.example.Owner.method or com.example.Owner.method(descriptor)");
        }
        String owner = qualifiedName.substring(0, dot).replace('.', '/');
        String name = qualifiedName.substring(dot + 1);
        List<String> lines = new ArrayList<>();
        boolean classFound = false;
        for (ClassReport classReport : report.classes()) {
            if (!classReport.className().equals(owner)) {
                continue;
            }
            classFound = true;
            for (MethodReport methodReport : classReport.methods()) {
                if (methodReport.name().equals(name)
                        && (descriptor == null || methodReport.descriptor().equals(descriptor))) {
                    describe(qualifiedName + methodReport.descriptor(), methodReport, report, lines);
                }
            }
        }
        if (!classFound) {
            lines.add(TransformCommand.WARNING + "--why " + method + ": the input has no class "
                    + owner.replace('/', '.'));
        } else if (lines.isEmpty()) {
            lines.add(method + ": reaches no blocking call; it is not rewritten");
        }
        return lines;
    }

    private static void describe(String method, MethodReport methodReport, TransformReport report,
            List<String> lines) {
        lines.add(method + (methodReport.rewritten() ? ": rewritten" : ": not rewritten, " + methodReport.reason()));
        for (SuspensionPoint point : methodReport.suspensionPoints()) {
            List<String> chain = report.blockingChains().get(point.target());
            lines.add("  line " + point.line() + " suspends in " + point.target() + (chain == null || chain.isEmpty()
                    ? ", the runtime monitor of a synchronized region that holds a suspension point"
                    : ": " + String.join(" -> ", chain)));
        }
        for (PinnedCallSite pinned : methodReport.pinnedCallSites()) {
            List<String> chain = report.blockingChains().get(pinned.target());
            lines.add("  line " + pinned.line() + " blocks in place in " + pinned.target() + ": " + pinned.reason()
                    + (chain == null || chain.isEmpty() ? "" : "; it blocks through " + String.join(" -> ", chain)));
        }
    }
}
