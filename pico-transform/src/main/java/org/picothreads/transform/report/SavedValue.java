package org.picothreads.transform.report;

/**
 * One value a suspended activation keeps at a suspension call site.
 *
 * @param kind       {@code "local"} for a live local variable, {@code "stack"} for an operand stack entry
 * @param slot       the local variable index, or the operand stack depth counted from the bottom
 * @param name       the local's source name when the class has a LocalVariableTable, otherwise null
 * @param descriptor the value's type descriptor, for example {@code J} or {@code Ljava/lang/String;}
 */
public record SavedValue(String kind, int slot, String name, String descriptor) {
}
