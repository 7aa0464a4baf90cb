package org.picothreads.transform.internal.emit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.util.Textifier;
import org.objectweb.asm.util.TraceMethodVisitor;
import org.picothreads.transform.internal.RuntimeNames;

/** The resume entry through which the runtime re-enters a saved activation of a class's capturing methods. */
class ResumeEntryWeaverTest {
    @Test
    void the_entry_calls_each_continuation_statically_with_the_receiver_and_default_arguments_and_answers_the_runtime_s_hand_over_or_stops_a_capture() {
        ClassNode owner = new ClassNode(RuntimeNames.ASM_API);
        owner.name = "example/Owner";
        owner.access = Opcodes.ACC_PUBLIC;
        SortedMap<Integer, MethodNode> capturing = new TreeMap<>();
        // the continuations of an instance method and of a static one, as ContinuationMethod makes them
        int access = Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC | Opcodes.ACC_SYNTHETIC;
        capturing.put(0, new MethodNode(access, "measure",
                ContinuationMethod.descriptor(owner.name, "(ILjava/lang/String;J)D", false), null, null));
        capturing.put(2, new MethodNode(access, "run", ContinuationMethod.descriptor(owner.name, "(Z)V", true), null,
                null));

        MethodNode entry = ResumeEntryWeaver.entry(owner, capturing);

        assertEquals(Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC | Opcodes.ACC_SYNTHETIC, entry.access);
        assertEquals(RuntimeNames.RESUME_ENTRY + RuntimeNames.RESUME_ENTRY_DESCRIPTOR, entry.name + entry.desc);
        assertEquals("""
                    TRYCATCHBLOCK L0 L1 L2 org/picothreads/runtime/internal/Capture
                    INVOKESTATIC org/picothreads/runtime/internal/Continuation.resumeEntryCalled ()V
                   L0
                    ILOAD 1
                    TABLESWITCH
                      0: L3
                      1: L4
                      2: L5
                      default: L4
                   L3
                    ALOAD 0
                    CHECKCAST example/Owner
                    ICONST_0
                    ACONST_NULL
                    LCONST_0
                    ACONST_NULL
                    INVOKESTATIC example/Owner.measure (Lexample/Owner;ILjava/lang/String;JLorg/picothreads/runtime/internal/Continuation;)D
                    INVOKESTATIC java/lang/Double.doubleToRawLongBits (D)J
                    BIPUSH 68
                    INVOKESTATIC org/picothreads/runtime/internal/Continuation.returnedUnlessCaptured (JC)Z
                    IRETURN
                   L5
                    ICONST_0
                    ACONST_NULL
                    INVOKESTATIC example/Owner.run (ZLorg/picothreads/runtime/internal/Frame;)V
                    INVOKESTATIC org/picothreads/runtime/internal/Continuation.returnedNothingUnlessCaptured ()Z
                    IRETURN
                   L1
                   L4
                    NEW java/lang/IllegalStateException
                    DUP
                    LDC "PicoThreads: no capturing method of that index in example/Owner"
                    INVOKESPECIAL java/lang/IllegalStateException.<init> (Ljava/lang/String;)V
                    ATHROW
                   L2
                    POP
                    ICONST_1
                    IRETURN
                    MAXSTACK = 0
                    MAXLOCALS = 0
                """, listing(entry));
    }

    private static String listing(MethodNode method) {
        Textifier textifier = new Textifier();
        method.accept(new TraceMethodVisitor(textifier));
        StringWriter text = new StringWriter();
        try (PrintWriter printer = new PrintWriter(text)) {
            textifier.print(printer);
        }
        return text.toString();
    }
}
