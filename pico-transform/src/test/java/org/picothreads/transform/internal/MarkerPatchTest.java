package org.picothreads.transform.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassTooLargeException;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

class MarkerPatchTest {
    private static final String OWNER = "example/Marked";

    @Test
    void the_edited_bytes_are_the_bytes_a_class_writer_copying_the_class_gives() {
        byte[] classFile = markedClass(0);
        // "n" is in the pool already (a method's name), "dd" and "ono" are not; "dd" repeats
        List<String> keys = List.of("dd", "n", "ono", "dd");

        byte[] patched = MarkerPatch.appendToMarker(new ClassReader(classFile), classFile,
                RuntimeNames.SITE_KEYS_ELEMENT, keys);

        assertNotNull(patched);
        assertArrayEquals(SiteKeys.addByCopying(new ClassReader(classFile), keys), patched);
        assertEquals(keys, MarkerElements.strings(patched, RuntimeNames.SITE_KEYS_ELEMENT));
    }

    @Test
    void a_pool_with_two_equal_constants_is_not_edited_and_the_keys_are_added_by_copying() {
        byte[] classFile = withDuplicateConstant(markedClass(0));

        assertNull(MarkerPatch.appendToMarker(new ClassReader(classFile), classFile, RuntimeNames.SITE_KEYS_ELEMENT,
                List.of("o")));
        byte[] keyed = SiteKeys.addTo(classFile, List.of("m()V"), List.of("1"));
        assertEquals(List.of("n"), MarkerElements.strings(keyed, RuntimeNames.SITE_KEYS_ELEMENT));
    }

    @Test
    void new_strings_past_the_largest_pool_fail_as_the_class_writer_fails() {
        byte[] classFile = markedClass(65_400);
        int count = new ClassReader(classFile).getItemCount();
        List<String> keys = new ArrayList<>();
        for (int index = 0; keys.size() + count <= 65_535; index++) {
            keys.add(Integer.toString(index, 3).replace('0', 'o').replace('1', 'n').replace('2', 'd') + "d");
        }

        ClassTooLargeException patchFailure = assertThrows(ClassTooLargeException.class, () ->
                MarkerPatch.appendToMarker(new ClassReader(classFile), classFile, RuntimeNames.SITE_KEYS_ELEMENT, keys));
        ClassTooLargeException copyFailure = assertThrows(ClassTooLargeException.class, () ->
                SiteKeys.addByCopying(new ClassReader(classFile), keys));
        assertEquals(copyFailure.getConstantPoolCount(), patchFailure.getConstantPoolCount());
    }

    /**
     * A class as the transformer writes one: fields with constants and annotations, an annotation before and after
     * the marker, an inner class, two methods, and {@code filler} more strings in its pool.
     */
    private static byte[] markedClass(int filler) {
        ClassWriter writer = new ClassWriter(0);
        writer.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, OWNER, null, "java/lang/Object", null);
        writer.visitSource("Marked.java", null);
        writer.visitAnnotation("Ljava/lang/Deprecated;", true).visitEnd();
        AnnotationVisitor marker = writer.visitAnnotation(RuntimeNames.REWRITTEN_MARKER, true);
        AnnotationVisitor value = marker.visitArray("value");
        value.visit(null, "m()V");
        value.visitEnd();
        AnnotationVisitor sites = marker.visitArray(RuntimeNames.SITES_ELEMENT);
        sites.visit(null, "1");
        sites.visitEnd();
        marker.visit("count", 3);
        marker.visitEnum("kind", "Ljava/lang/annotation/RetentionPolicy;", "RUNTIME");
        marker.visitAnnotation("nested", "Ljava/lang/Deprecated;").visitEnd();
        marker.visitEnd();
        AnnotationVisitor after = writer.visitAnnotation("Lexample/After;", true);
        after.visit("text", "after");
        after.visitEnd();
        writer.visitInnerClass(OWNER + "$Inner", OWNER, "Inner", Opcodes.ACC_STATIC);
        FieldVisitor field = writer.visitField(Opcodes.ACC_STATIC | Opcodes.ACC_FINAL, "limit", "J", null, 5L);
        field.visitAnnotation("Lexample/Field;", false).visitEnd();
        field.visitEnd();
        writer.visitField(Opcodes.ACC_STATIC, "name", "Ljava/lang/String;", null, "text").visitEnd();
        for (String name : new String[] {"m", "n"}) {
            MethodVisitor method = writer.visitMethod(Opcodes.ACC_STATIC, name, "()V", null, null);
            method.visitCode();
            method.visitInsn(Opcodes.NOP);
            method.visitMethodInsn(Opcodes.INVOKESTATIC, OWNER, "n", "()V", false);
            method.visitInsn(Opcodes.RETURN);
            method.visitMaxs(0, 0);
            method.visitEnd();
        }
        for (int index = 0; index < filler; index++) {
            writer.newUTF8("filler" + index);
        }
        writer.visitEnd();
        return writer.toByteArray();
    }

    /** The class file with one more constant pool entry, equal to its first: the CONSTANT_Utf8 of a new string. */
    private static byte[] withDuplicateConstant(byte[] classFile) {
        ClassReader reader = new ClassReader(classFile);
        int first = reader.getItem(1) - 1;
        int second = reader.getItem(2) - 1;
        byte[] entry = Arrays.copyOfRange(classFile, first, second);
        byte[] copy = new byte[classFile.length + entry.length];
        System.arraycopy(classFile, 0, copy, 0, reader.header);
        System.arraycopy(entry, 0, copy, reader.header, entry.length);
        System.arraycopy(classFile, reader.header, copy, reader.header + entry.length,
                classFile.length - reader.header);
        int count = reader.getItemCount() + 1;
        copy[8] = (byte) (count >>> 8);
        copy[9] = (byte) count;
        return copy;
    }
}
