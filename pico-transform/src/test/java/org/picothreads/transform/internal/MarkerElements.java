package org.picothreads.transform.internal;

import java.util.ArrayList;
import java.util.List;
import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;

/** Reads an array element of a class file's rewrite marker, for the tests of what the transformer writes into it. */
final class MarkerElements {
    private MarkerElements() {
    }

    /** The strings of the marker's array element {@code name}. */
    static List<String> strings(byte[] classFile, String name) {
        List<String> values = new ArrayList<>();
        new ClassReader(classFile).accept(new ClassVisitor(RuntimeNames.ASM_API) {
            @Override
            public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
                if (!descriptor.equals(RuntimeNames.REWRITTEN_MARKER)) {
                    return null;
                }
                return new AnnotationVisitor(RuntimeNames.ASM_API) {
                    @Override
                    public AnnotationVisitor visitArray(String element) {
                        return !element.equals(name) ? null : new AnnotationVisitor(RuntimeNames.ASM_API) {
                            @Override
                            public void visit(String unnamed, Object value) {
                                values.add((String) value);
                            }
                        };
                    }
                };
            }
        }, 0);
        return values;
    }
}
