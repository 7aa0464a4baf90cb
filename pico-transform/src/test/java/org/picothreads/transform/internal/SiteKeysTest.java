package org.picothreads.transform.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

class SiteKeysTest {
    private static final String OWNER = "example/Sites";

    @Test
    void positions_are_the_offsets_of_the_calls_and_constant_pool_instructions_as_the_class_file_lays_them_out() {
        List<Label> positions = new ArrayList<>();
        ClassWriter writer = new ClassWriter(0);
        writer.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, OWNER, null, "java/lang/Object", null);
        writer.visitField(Opcodes.ACC_STATIC, "field", "I", null, null).visitEnd();
        MethodVisitor method = writer.visitMethod(Opcodes.ACC_STATIC, "m", "(I)V", null, null);
        method.visitCode();
        for (int alignment = 0; alignment < 4; alignment++) {
            // switches at every alignment, whose padding moves what follows
            method.visitVarInsn(Opcodes.ILOAD, 0);
            Label next = new Label();
            method.visitTableSwitchInsn(0, 2, next, next, next, next);
            method.visitLabel(next);
            position(method, positions).visitFieldInsn(Opcodes.GETSTATIC, OWNER, "field", "I");
            Label after = new Label();
            method.visitLookupSwitchInsn(after, new int[] {1, 5}, new Label[] {after, after});
            method.visitLabel(after);
            method.visitInsn(Opcodes.NOP);
            for (int nop = 0; nop < alignment; nop++) {
                method.visitInsn(Opcodes.NOP);
            }
        }
        method.visitVarInsn(Opcodes.ILOAD, 300); // wide load
        method.visitIincInsn(300, 1000); // wide iinc
        method.visitIntInsn(Opcodes.SIPUSH, 1000);
        method.visitInsn(Opcodes.POP2);
        position(method, positions).visitLdcInsn("text");
        position(method, positions).visitLdcInsn(Type.getType("Ljava/lang/String;"));
        position(method, positions).visitLdcInsn(5L);
        method.visitInsn(Opcodes.POP2);
        method.visitInsn(Opcodes.POP2);
        position(method, positions).visitTypeInsn(Opcodes.NEW, "java/lang/Object");
        position(method, positions).visitTypeInsn(Opcodes.CHECKCAST, "java/lang/Object");
        position(method, positions).visitTypeInsn(Opcodes.INSTANCEOF, "java/lang/Object");
        method.visitInsn(Opcodes.POP);
        method.visitInsn(Opcodes.ICONST_1);
        position(method, positions).visitTypeInsn(Opcodes.ANEWARRAY, "java/lang/Object");
        method.visitInsn(Opcodes.ICONST_1);
        method.visitIntInsn(Opcodes.NEWARRAY, Opcodes.T_INT);
        method.visitInsn(Opcodes.ARRAYLENGTH);
        method.visitInsn(Opcodes.ICONST_1);
        position(method, positions).visitMultiANewArrayInsn("[[I", 2);
        position(method, positions).visitMethodInsn(Opcodes.INVOKESTATIC, OWNER, "n", "()V", false);
        position(method, positions).visitMethodInsn(Opcodes.INVOKEINTERFACE, "java/lang/Runnable", "run", "()V", true);
        position(method, positions).visitFieldInsn(Opcodes.PUTSTATIC, OWNER, "field", "I");
        method.visitInsn(Opcodes.RETURN);
        method.visitMaxs(10, 400);
        method.visitEnd();
        writer.visitEnd();
        byte[] classFile = writer.toByteArray();

        BitSet expected = new BitSet();
        positions.forEach(label -> expected.set(label.getOffset()));
        assertEquals(expected, SiteKeys.positions(new ClassReader(classFile)).get("m(I)V"));
    }

    @Test
    void a_site_is_keyed_by_offset_by_name_or_by_descriptor_as_the_other_methods_positions_collide_with_it() {
        List<String> methods = List.of("m(I)V", "m(ILorg/picothreads/runtime/internal/Frame;)V");
        List<String> sites = List.of("5,9,14", "20,30");
        Map<String, BitSet> positions = Map.of(
                "m(I)V", offsets(5, 9, 14),
                "m(ILorg/picothreads/runtime/internal/Frame;)V", offsets(3, 14, 20, 30),
                "m(Ljava/lang/String;)V", offsets(5, 12),
                "other()V", offsets(9, 20),
                "$picothreads$resume(Ljava/lang/Object;I)V", offsets(2, 40));
        // 5: the overload m(String) has a call there; 9: only a method of another name does; 14: the continuation
        // calls there at a call that is no site of its own; 20: another name; 30: nobody else
        assertEquals(List.of("dnd", "no"), SiteKeys.keys(methods, sites, positions));
    }

    @Test
    void a_site_where_the_written_method_has_no_call_is_keyed_by_descriptor() {
        assertEquals(List.of("d"), SiteKeys.keys(List.of("m()V"), List.of("7"), Map.of("m()V", offsets(8))));
    }

    @Test
    void the_keys_join_the_marker_every_method_keeps_its_offsets_and_the_output_is_deterministic() {
        ClassWriter writer = new ClassWriter(0);
        writer.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, OWNER, null, "java/lang/Object", null);
        AnnotationVisitor marker = writer.visitAnnotation(RuntimeNames.REWRITTEN_MARKER, true);
        AnnotationVisitor value = marker.visitArray("value");
        value.visit(null, "m()V");
        value.visitEnd();
        AnnotationVisitor sites = marker.visitArray(RuntimeNames.SITES_ELEMENT);
        sites.visit(null, "1");
        sites.visitEnd();
        marker.visitEnd();
        for (String name : new String[] {"m", "n"}) {
            MethodVisitor method = writer.visitMethod(Opcodes.ACC_STATIC, name, "()V", null, null);
            method.visitCode();
            method.visitInsn(Opcodes.NOP);
            method.visitMethodInsn(Opcodes.INVOKESTATIC, OWNER, "n", "()V", false);
            method.visitInsn(Opcodes.RETURN);
            method.visitMaxs(0, 0);
            method.visitEnd();
        }
        writer.visitEnd();
        byte[] before = writer.toByteArray();

        byte[] after = SiteKeys.addTo(before, List.of("m()V"), List.of("1"));

        // n()V has the same call at offset 1, which is no site of its own: the name tells m's site apart
        assertEquals(List.of("n"), MarkerElements.strings(after, RuntimeNames.SITE_KEYS_ELEMENT));
        assertEquals(SiteKeys.positions(new ClassReader(before)), SiteKeys.positions(new ClassReader(after)));
        assertArrayEquals(after, SiteKeys.addTo(before, List.of("m()V"), List.of("1")));
    }

    private static BitSet offsets(int... offsets) {
        BitSet set = new BitSet();
        for (int offset : offsets) {
            set.set(offset);
        }
        return set;
    }

    private static MethodVisitor position(MethodVisitor method, List<Label> positions) {
        Label label = new Label();
        method.visitLabel(label);
        positions.add(label);
        return method;
    }
}
