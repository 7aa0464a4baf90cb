package org.picothreads.transform.report;

import java.util.List;

/**
 * The whole account of one transformation run: one entry per class that was read.
 *
 * @param classes the class reports, in input order
 */
public record TransformReport(List<ClassReport> classes) {
}
