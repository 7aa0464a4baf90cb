package org.picothreads.transform.report;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes a {@link TransformReport} as JSON: keys in a fixed order, indented by two spaces, and pure ASCII, every
 * other character escaped as <code>&#92;uXXXX</code>.
 *
 * <pre>
 * {"classes": [{"className", "source", "changed", "alreadyTransformed", "redirectedCalls",
 *               "leftUnrewritten" (only for a class whose rewrite would not fit in a class file),
 *               "methods": [{"name", "descriptor", "rewritten", "reason",
 *                            "suspensionPoints": [{"index", "line", "target",
 *                                                  "saved": [{"kind", "slot", "name", "descriptor"}]}],
 *                            "pinnedCallSites": [{"line", "target", "reason"}],
 *                            "sharedMonitorRegions": [{"line", "monitor"}] (only when there is one)}]}],
 *  "blockingChains": {TARGET: [TARGET, METHOD..., PRIMITIVE]} (only when a call can suspend, by target),
 *  "summary": {"classes", "changedClasses", "rewrittenMethods", "untransformedMethods",
 *              "suspensionPoints", "pinnedCallSites"}}
 * </pre>
 */
public final class ReportJson {
    private ReportJson() {
    }

    /**
     * The totals of a report, as its {@code "summary"} object holds them.
     *
     * @param classes              how many classes were read
     * @param changedClasses       how many of them changed
     * @param rewrittenMethods     methods rewritten to capture and restore their frames
     * @param untransformedMethods methods that can reach a blocking call but were left as they were
     * @param suspensionPoints     call sites at which a rewritten method can suspend
     * @param pinnedCallSites      call sites that may block but pin the thread instead
     */
    public record Summary(int classes, int changedClasses, int rewrittenMethods, int untransformedMethods,
            int suspensionPoints, int pinnedCallSites) {

        /** Adds up the report's classes and methods. */
        public static Summary of(TransformReport report) {
            int classes = 0;
            int changedClasses = 0;
            int rewrittenMethods = 0;
            int untransformedMethods = 0;
            int suspensionPoints = 0;
            int pinnedCallSites = 0;
            for (ClassReport classReport : orEmpty(report.classes())) {
                classes++;
                changedClasses += classReport.changed() ? 1 : 0;
                for (MethodReport method : orEmpty(classReport.methods())) {
                    rewrittenMethods += method.rewritten() ? 1 : 0;
                    untransformedMethods += method.rewritten() ? 0 : 1;
                    suspensionPoints += orEmpty(method.suspensionPoints()).size();
                    pinnedCallSites += orEmpty(method.pinnedCallSites()).size();
                }
            }
            return new Summary(classes, changedClasses, rewrittenMethods, untransformedMethods, suspensionPoints,
                    pinnedCallSites);
        }
    }

    /** The report as JSON text, ending in a line break. */
    public static String toJson(TransformReport report) {
        JsonWriter json = new JsonWriter();
        json.beginObject();
        json.name("classes").beginArray();
        for (ClassReport classReport : orEmpty(report.classes())) {
            writeClass(json, classReport);
        }
        json.endArray();
        Map<String, List<String>> chains = report.blockingChains() == null ? Map.of() : report.blockingChains();
        if (!chains.isEmpty()) {
            json.name("blockingChains").beginObject();
            for (Map.Entry<String, List<String>> chain : new TreeMap<>(chains).entrySet()) {
                json.name(chain.getKey()).beginArray();
                for (String step : chain.getValue()) {
                    json.value(step);
                }
                json.endArray();
            }
            json.endObject();
        }
        Summary summary = Summary.of(report);
        json.name("summary").beginObject();
        json.name("classes").value(summary.classes());
        json.name("changedClasses").value(summary.changedClasses());
        json.name("rewrittenMethods").value(summary.rewrittenMethods());
        json.name("untransformedMethods").value(summary.untransformedMethods());
        json.name("suspensionPoints").value(summary.suspensionPoints());
        json.name("pinnedCallSites").value(summary.pinnedCallSites());
        json.endObject();
        json.endObject();
        return json.text() + "\n";
    }

    private static void writeClass(JsonWriter json, ClassReport classReport) {
        json.beginObject();
        json.name("className").value(classReport.className());
        json.name("source").value(classReport.source());
        json.name("changed").value(classReport.changed());
        json.name("alreadyTransformed").value(classReport.alreadyTransformed());
        json.name("redirectedCalls").value(classReport.redirectedCalls());
        if (classReport.leftUnrewritten() != null) {
            json.name("leftUnrewritten").value(classReport.leftUnrewritten());
        }
        json.name("methods").beginArray();
        for (MethodReport method : orEmpty(classReport.methods())) {
            writeMethod(json, method);
        }
        json.endArray();
        json.endObject();
    }

    private static void writeMethod(JsonWriter json, MethodReport method) {
        json.beginObject();
        json.name("name").value(method.name());
        json.name("descriptor").value(method.descriptor());
        json.name("rewritten").value(method.rewritten());
        json.name("reason").value(method.reason());
        json.name("suspensionPoints").beginArray();
        for (SuspensionPoint point : orEmpty(method.suspensionPoints())) {
            json.beginObject();
            json.name("index").value(point.index());
            json.name("line").value(point.line());
            json.name("target").value(point.target());
            json.name("saved").beginArray();
            for (SavedValue saved : orEmpty(point.saved())) {
                json.beginObject();
                json.name("kind").value(saved.kind());
                json.name("slot").value(saved.slot());
                json.name("name").value(saved.name());
                json.name("descriptor").value(saved.descriptor());
                json.endObject();
            }
            json.endArray();
            json.endObject();
        }
        json.endArray();
        json.name("pinnedCallSites").beginArray();
        for (PinnedCallSite pinned : orEmpty(method.pinnedCallSites())) {
            json.beginObject();
            json.name("line").value(pinned.line());
            json.name("target").value(pinned.target());
            json.name("reason").value(pinned.reason());
            json.endObject();
        }
        json.endArray();
        if (!orEmpty(method.sharedMonitorRegions()).isEmpty()) {
            json.name("sharedMonitorRegions").beginArray();
            for (SharedMonitorRegion region : method.sharedMonitorRegions()) {
                json.beginObject();
                json.name("line").value(region.line());
                json.name("monitor").value(region.monitor());
                json.endObject();
            }
            json.endArray();
        }
        json.endObject();
    }

    private static <T> List<T> orEmpty(List<T> list) {
        return list == null ? List.of() : list;
    }

    /** Appends JSON tokens with the commas, line breaks and indentation between them. */
    private static final class JsonWriter {
        private final StringBuilder text = new StringBuilder();
        /** One entry per open object or array: whether it has an element yet. */
        private final Deque<Boolean> openHasElements = new ArrayDeque<>();
        /** True right after a key, where the value follows on the same line. */
        private boolean afterName;

        JsonWriter beginObject() {
            beforeValue();
            text.append('{');
            openHasElements.push(false);
            return this;
        }

        JsonWriter endObject() {
            return close('}');
        }

        JsonWriter beginArray() {
            beforeValue();
            text.append('[');
            openHasElements.push(false);
            return this;
        }

        JsonWriter endArray() {
            return close(']');
        }

        JsonWriter name(String name) {
            newElement();
            appendString(name);
            text.append(": ");
            afterName = true;
            return this;
        }

        void value(String value) {
            beforeValue();
            if (value == null) {
                text.append("null");
            } else {
                appendString(value);
            }
        }

        void value(int value) {
            beforeValue();
            text.append(value);
        }

        void value(boolean value) {
            beforeValue();
            text.append(value);
        }

        String text() {
            return text.toString();
        }

        private JsonWriter close(char bracket) {
            boolean hasElements = openHasElements.pop();
            if (hasElements) {
                lineBreak();
            }
            text.append(bracket);
            return this;
        }

        private void beforeValue() {
            if (afterName) {
                afterName = false;
            } else if (!openHasElements.isEmpty()) {
                newElement();
            }
        }

        private void newElement() {
            if (openHasElements.pop()) {
                text.append(',');
            }
            openHasElements.push(true);
            lineBreak();
        }

        private void lineBreak() {
            text.append('\n');
            for (int depth = openHasElements.size(); depth > 0; depth--) {
                text.append("  ");
            }
        }

        private void appendString(String value) {
            text.append('"');
            int plain = 0;
            while (plain < value.length() && isPlain(value.charAt(plain))) {
                plain++;
            }
            // The plain start, usually the whole string, in one append; the rest character by character.
            text.append(value, 0, plain);
            for (int i = plain; i < value.length(); i++) {
                char character = value.charAt(i);
                switch (character) {
                    case '"' -> text.append("\\\"");
                    case '\\' -> text.append("\\\\");
                    case '\b' -> text.append("\\b");
                    case '\f' -> text.append("\\f");
                    case '\n' -> text.append("\\n");
                    case '\r' -> text.append("\\r");
                    case '\t' -> text.append("\\t");
                    default -> {
                        if (character < 0x20 || character > 0x7e) {
                            text.append("\\u");
                            for (int shift = 12; shift >= 0; shift -= 4) {
                                text.append(Character.forDigit(character >> shift & 0xf, 16));
                            }
                        } else {
                            text.append(character);
                        }
                    }
                }
            }
            text.append('"');
        }

        /** True for a character written as itself: printable ASCII other than the quote and the backslash. */
        private static boolean isPlain(char character) {
            return character >= 0x20 && character <= 0x7e && character != '"' && character != '\\';
        }
    }
}
