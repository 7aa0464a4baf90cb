package org.picothreads.transform.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.picothreads.transform.report.ClassReport;
import org.picothreads.transform.report.MethodReport;
import org.picothreads.transform.report.PinnedCallSite;
import org.picothreads.transform.report.ReportJson;
import org.picothreads.transform.report.SavedValue;
import org.picothreads.transform.report.SuspensionPoint;
import org.picothreads.transform.report.TransformReport;

/** The JSON report, checked as text: its shape, key order, indentation and string escapes. */
class ReportJsonTest {
    @Test
    void a_report_is_written_with_every_key_in_order_and_indented_by_two_spaces() {
        MethodReport run = new MethodReport("run", "()V", true, null,
                List.of(new SuspensionPoint(0, 12, "java/lang/Thread.sleep(J)V", List.of(
                        new SavedValue("local", 0, "this", "Lcom/x/Worker;"),
                        new SavedValue("stack", 1, null, "J")))),
                List.of());
        MethodReport locked = new MethodReport("locked", "()V", false, "calls a blocking method inside synchronized",
                List.of(), List.of(new PinnedCallSite(-1, "java/lang/Object.wait()V", "holds a monitor")));
        TransformReport report = new TransformReport(List.of(
                new ClassReport("com/x/Worker", "in.jar!/com/x/Worker.class", true, false, List.of(run, locked), 2),
                new ClassReport("com/x/Plain", "classes/com/x/Plain.class", false, true, List.of(), 0)));

        String json = ReportJson.toJson(report);

        assertEquals("""
                {
                  "classes": [
                    {
                      "className": "com/x/Worker",
                      "source": "in.jar!/com/x/Worker.class",
                      "changed": true,
                      "alreadyTransformed": false,
                      "redirectedCalls": 2,
                      "methods": [
                        {
                          "name": "run",
                          "descriptor": "()V",
                          "rewritten": true,
                          "reason": null,
                          "suspensionPoints": [
                            {
                              "index": 0,
                              "line": 12,
                              "target": "java/lang/Thread.sleep(J)V",
                              "saved": [
                                {
                                  "kind": "local",
                                  "slot": 0,
                                  "name": "this",
                                  "descriptor": "Lcom/x/Worker;"
                                },
                                {
                                  "kind": "stack",
                                  "slot": 1,
                                  "name": null,
                                  "descriptor": "J"
                                }
                              ]
                            }
                          ],
                          "pinnedCallSites": []
                        },
                        {
                          "name": "locked",
                          "descriptor": "()V",
                          "rewritten": false,
                          "reason": "calls a blocking method inside synchronized",
                          "suspensionPoints": [],
                          "pinnedCallSites": [
                            {
                              "line": -1,
                              "target": "java/lang/Object.wait()V",
                              "reason": "holds a monitor"
                            }
                          ]
                        }
                      ]
                    },
                    {
                      "className": "com/x/Plain",
                      "source": "classes/com/x/Plain.class",
                      "changed": false,
                      "alreadyTransformed": true,
                      "redirectedCalls": 0,
                      "methods": []
                    }
                  ],
                  "summary": {
                    "classes": 2,
                    "changedClasses": 1,
                    "rewrittenMethods": 1,
                    "untransformedMethods": 1,
                    "suspensionPoints": 1,
                    "pinnedCallSites": 1
                  }
                }
                """, json);
    }

    @Test
    void an_empty_report_has_an_empty_class_list_and_a_zero_summary() {
        assertEquals("""
                {
                  "classes": [],
                  "summary": {
                    "classes": 0,
                    "changedClasses": 0,
                    "rewrittenMethods": 0,
                    "untransformedMethods": 0,
                    "suspensionPoints": 0,
                    "pinnedCallSites": 0
                  }
                }
                """, ReportJson.toJson(new TransformReport(List.of())));
    }

    @Test
    void a_class_left_as_it_was_says_why_after_its_redirected_calls_and_other_classes_say_nothing_of_it() {
        TransformReport report = new TransformReport(List.of(
                new ClassReport("com/x/Huge", "Huge.class", false, false, List.of(), 0, "too large, left as it was"),
                new ClassReport("com/x/Plain", "Plain.class", false, false, List.of(), 0)));

        List<String> lines = ReportJson.toJson(report).lines().toList();

        assertEquals(List.of("      \"redirectedCalls\": 0,", "      \"leftUnrewritten\": \"too large, left as it was\",",
                "      \"methods\": []"), lines.subList(7, 10));
        assertEquals(1, lines.stream().filter(line -> line.contains("leftUnrewritten")).count());
    }

    @Test
    void quotes_backslashes_control_characters_and_non_ascii_are_escaped() {
        String source = "C:\\build\\\"quoted\"\ttab\nnew line\r\b\f\u0001\u001f\u007f caf\u00e9 \u4e2d \ud83d\ude00";
        TransformReport report = new TransformReport(List.of(
                new ClassReport("com/x/Caf\u00e9", source, false, false, List.of(), 0)));

        String json = ReportJson.toJson(report);

        assertEquals("      \"className\": \"com/x/Caf\\u00e9\",", json.lines().toList().get(3));
        assertEquals("      \"source\": \"C:\\\\build\\\\\\\"quoted\\\"\\ttab\\nnew line\\r\\b\\f\\u0001\\u001f"
                + "\\u007f caf\\u00e9 \\u4e2d \\ud83d\\ude00\",", json.lines().toList().get(4));
        assertEquals(json, json.codePoints().filter(c -> c < 0x80)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString());
    }

    @Test
    void the_summary_adds_up_every_class_and_method() {
        MethodReport rewritten = new MethodReport("a", "()V", true, null, List.of(
                new SuspensionPoint(0, 1, "t", List.of()), new SuspensionPoint(1, 2, "t", List.of())),
                List.of(new PinnedCallSite(3, "t", "r")));
        MethodReport untransformed = new MethodReport("b", "()V", false, "why", List.of(), List.of());
        TransformReport report = new TransformReport(List.of(
                new ClassReport("A", "A.class", true, false, List.of(rewritten, rewritten, untransformed), 0),
                new ClassReport("B", "B.class", false, false, List.of(untransformed), 0),
                new ClassReport("C", "C.class", true, false, List.of(), 4)));

        assertEquals(new ReportJson.Summary(3, 2, 2, 2, 4, 2), ReportJson.Summary.of(report));
    }
}
