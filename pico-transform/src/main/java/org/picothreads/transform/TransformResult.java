package org.picothreads.transform;

import java.util.List;
import org.picothreads.transform.report.TransformReport;

/**
 * The outcome of transforming a set of classes.
 *
 * @param classes one output per input, in input order
 * @param report  what was done to each class
 */
public record TransformResult(List<ClassOutput> classes, TransformReport report) {
}
