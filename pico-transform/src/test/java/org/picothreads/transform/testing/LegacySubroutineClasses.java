package org.picothreads.transform.testing;

import static org.objectweb.asm.Opcodes.AASTORE;
import static org.objectweb.asm.Opcodes.AALOAD;
import static org.objectweb.asm.Opcodes.ACC_FINAL;
import static org.objectweb.asm.Opcodes.ACC_PRIVATE;
import static org.objectweb.asm.Opcodes.ACC_PUBLIC;
import static org.objectweb.asm.Opcodes.ACC_STATIC;
import static org.objectweb.asm.Opcodes.ACC_SUPER;
import static org.objectweb.asm.Opcodes.ALOAD;
import static org.objectweb.asm.Opcodes.ANEWARRAY;
import static org.objectweb.asm.Opcodes.ARETURN;
import static org.objectweb.asm.Opcodes.ASTORE;
import static org.objectweb.asm.Opcodes.ATHROW;
import static org.objectweb.asm.Opcodes.BIPUSH;
import static org.objectweb.asm.Opcodes.DUP;
import static org.objectweb.asm.Opcodes.GETFIELD;
import static org.objectweb.asm.Opcodes.GETSTATIC;
import static org.objectweb.asm.Opcodes.GOTO;
import static org.objectweb.asm.Opcodes.IADD;
import static org.objectweb.asm.Opcodes.IASTORE;
import static org.objectweb.asm.Opcodes.ICONST_0;
import static org.objectweb.asm.Opcodes.ICONST_1;
import static org.objectweb.asm.Opcodes.ICONST_2;
import static org.objectweb.asm.Opcodes.ICONST_3;
import static org.objectweb.asm.Opcodes.ICONST_4;
import static org.objectweb.asm.Opcodes.IF_ICMPGE;
import static org.objectweb.asm.Opcodes.ILOAD;
import static org.objectweb.asm.Opcodes.IMUL;
import static org.objectweb.asm.Opcodes.INVOKESPECIAL;
import static org.objectweb.asm.Opcodes.INVOKESTATIC;
import static org.objectweb.asm.Opcodes.INVOKEVIRTUAL;
import static org.objectweb.asm.Opcodes.IRETURN;
import static org.objectweb.asm.Opcodes.ISTORE;
import static org.objectweb.asm.Opcodes.JSR;
import static org.objectweb.asm.Opcodes.NEW;
import static org.objectweb.asm.Opcodes.NEWARRAY;
import static org.objectweb.asm.Opcodes.POP;
import static org.objectweb.asm.Opcodes.PUTFIELD;
import static org.objectweb.asm.Opcodes.PUTSTATIC;
import static org.objectweb.asm.Opcodes.RET;
import static org.objectweb.asm.Opcodes.RETURN;
import static org.objectweb.asm.Opcodes.SIPUSH;
import static org.objectweb.asm.Opcodes.T_INT;
import static org.objectweb.asm.Opcodes.V1_5;

import java.util.Map;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;

/**
 * Generates, with ASM, two version-49 (Java 5) classes that use JSR and RET the way old javac compiled
 * {@code finally}, since no current javac can emit them:
 *
 * <pre>
 * class LegacySubroutines {
 *     public static int[] results;
 *     public static String run()          // starts 4 LegacyWorkers, joins them, returns Arrays.toString(results)
 *     static int sleepInTryBody(int n)    // acc = n*10; try { sleep(2); acc += 1 } finally { acc += 100 }
 *                                         //   returns n*10+101
 *     static int sleepInSubroutine(int n) // acc = n; try { acc += 1 } finally { sleep(1); acc += 1000 }
 *                                         //   returns n+1001
 *     static int throwInTryBody(int n)    // acc = n; try { try { acc += 1; sleep(1); throw new ISE() }
 *                                         //   finally { acc += 100; sleep(1) } } catch (ISE e) { return acc + 1000 }
 *                                         //   returns n+1101
 * }
 * class LegacyWorker extends Thread {     // run(): results[3i + k] = method k (i), with the array and the
 *     LegacyWorker(int index)             //   index on the operand stack under the call
 * }
 * </pre>
 *
 * Each {@code finally} is a subroutine entered by JSR from the normal path and from the catch-any handler, its
 * return address stored in a local and used by RET. {@link #EXPECTED_RESULT} is what {@code run()} returns.
 */
public final class LegacySubroutineClasses {
    /** Binary-name prefix of the generated classes' package. */
    public static final String PACKAGE_PREFIX = "org.picothreads.targets.subroutines.";
    /** The class with the static {@code run()} and the subroutine methods. */
    public static final String MAIN_CLASS = PACKAGE_PREFIX + "LegacySubroutines";
    /** The Thread subclass that calls the subroutine methods. */
    public static final String WORKER_CLASS = PACKAGE_PREFIX + "LegacyWorker";
    /** What {@code run()} returns: for each worker i, i*10+101, i+1001 and i+1101. */
    public static final String EXPECTED_RESULT = "[101, 1001, 1101, 111, 1002, 1102, 121, 1003, 1103, 131, 1004, 1104]";

    private static final String MAIN = MAIN_CLASS.replace('.', '/');
    private static final String WORKER = WORKER_CLASS.replace('.', '/');
    private static final String THREAD = "java/lang/Thread";
    private static final String STATE_EXCEPTION = "java/lang/IllegalStateException";
    private static final int WORKERS = 4;

    private LegacySubroutineClasses() {
    }

    /** Both class files, by binary name. */
    public static Map<String, byte[]> generate() {
        return Map.of(MAIN_CLASS, mainClass(), WORKER_CLASS, workerClass());
    }

    private static byte[] mainClass() {
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        writer.visit(V1_5, ACC_PUBLIC | ACC_FINAL | ACC_SUPER, MAIN, null, "java/lang/Object", null);
        writer.visitField(ACC_PUBLIC | ACC_STATIC, "results", "[I", null, null).visitEnd();
        String[] exceptions = {"java/lang/Exception"};
        writeRun(writer.visitMethod(ACC_PUBLIC | ACC_STATIC, "run", "()Ljava/lang/String;", null, exceptions));
        writeSleepInTryBody(writer.visitMethod(ACC_STATIC, "sleepInTryBody", "(I)I", null, null));
        writeSleepInSubroutine(writer.visitMethod(ACC_STATIC, "sleepInSubroutine", "(I)I", null, null));
        writeThrowInTryBody(writer.visitMethod(ACC_STATIC, "throwInTryBody", "(I)I", null, null));
        writer.visitEnd();
        return writer.toByteArray();
    }

    private static byte[] workerClass() {
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        writer.visit(V1_5, ACC_FINAL | ACC_SUPER, WORKER, null, THREAD, null);
        writer.visitField(ACC_PRIVATE | ACC_FINAL, "index", "I", null, null).visitEnd();

        MethodVisitor constructor = writer.visitMethod(0, "<init>", "(I)V", null, null);
        constructor.visitCode();
        constructor.visitVarInsn(ALOAD, 0);
        constructor.visitMethodInsn(INVOKESPECIAL, THREAD, "<init>", "()V", false);
        constructor.visitVarInsn(ALOAD, 0);
        constructor.visitVarInsn(ILOAD, 1);
        constructor.visitFieldInsn(PUTFIELD, WORKER, "index", "I");
        constructor.visitInsn(RETURN);
        constructor.visitMaxs(0, 0);
        constructor.visitEnd();

        MethodVisitor run = writer.visitMethod(ACC_PUBLIC, "run", "()V", null, null);
        run.visitCode();
        String[] methods = {"sleepInTryBody", "sleepInSubroutine", "throwInTryBody"};
        for (int offset = 0; offset < methods.length; offset++) {
            // Stack: results, 3 * index + offset, then the call's result stored into the array.
            run.visitFieldInsn(GETSTATIC, MAIN, "results", "[I");
            run.visitVarInsn(ALOAD, 0);
            run.visitFieldInsn(GETFIELD, WORKER, "index", "I");
            run.visitInsn(ICONST_3);
            run.visitInsn(IMUL);
            run.visitInsn(ICONST_0 + offset);
            run.visitInsn(IADD);
            run.visitVarInsn(ALOAD, 0);
            run.visitFieldInsn(GETFIELD, WORKER, "index", "I");
            run.visitMethodInsn(INVOKESTATIC, MAIN, methods[offset], "(I)I", false);
            run.visitInsn(IASTORE);
        }
        run.visitInsn(RETURN);
        run.visitMaxs(0, 0);
        run.visitEnd();
        writer.visitEnd();
        return writer.toByteArray();
    }

    /** Locals: 0 the threads, 1 the loop index. */
    private static void writeRun(MethodVisitor method) {
        method.visitCode();
        method.visitIntInsn(BIPUSH, WORKERS * 3);
        method.visitIntInsn(NEWARRAY, T_INT);
        method.visitFieldInsn(PUTSTATIC, MAIN, "results", "[I");
        method.visitInsn(ICONST_4);
        method.visitTypeInsn(ANEWARRAY, THREAD);
        method.visitVarInsn(ASTORE, 0);

        Label startLoop = new Label();
        Label startDone = new Label();
        method.visitInsn(ICONST_0);
        method.visitVarInsn(ISTORE, 1);
        method.visitLabel(startLoop);
        method.visitVarInsn(ILOAD, 1);
        method.visitInsn(ICONST_4);
        method.visitJumpInsn(IF_ICMPGE, startDone);
        method.visitVarInsn(ALOAD, 0);
        method.visitVarInsn(ILOAD, 1);
        method.visitTypeInsn(NEW, WORKER);
        method.visitInsn(DUP);
        method.visitVarInsn(ILOAD, 1);
        method.visitMethodInsn(INVOKESPECIAL, WORKER, "<init>", "(I)V", false);
        method.visitInsn(AASTORE);
        method.visitVarInsn(ALOAD, 0);
        method.visitVarInsn(ILOAD, 1);
        method.visitInsn(AALOAD);
        method.visitMethodInsn(INVOKEVIRTUAL, THREAD, "start", "()V", false);
        method.visitIincInsn(1, 1);
        method.visitJumpInsn(GOTO, startLoop);
        method.visitLabel(startDone);

        Label joinLoop = new Label();
        Label joinDone = new Label();
        method.visitInsn(ICONST_0);
        method.visitVarInsn(ISTORE, 1);
        method.visitLabel(joinLoop);
        method.visitVarInsn(ILOAD, 1);
        method.visitInsn(ICONST_4);
        method.visitJumpInsn(IF_ICMPGE, joinDone);
        method.visitVarInsn(ALOAD, 0);
        method.visitVarInsn(ILOAD, 1);
        method.visitInsn(AALOAD);
        method.visitMethodInsn(INVOKEVIRTUAL, THREAD, "join", "()V", false);
        method.visitIincInsn(1, 1);
        method.visitJumpInsn(GOTO, joinLoop);
        method.visitLabel(joinDone);

        method.visitFieldInsn(GETSTATIC, MAIN, "results", "[I");
        method.visitMethodInsn(INVOKESTATIC, "java/util/Arrays", "toString", "([I)Ljava/lang/String;", false);
        method.visitInsn(ARETURN);
        method.visitMaxs(0, 0);
        method.visitEnd();
    }

    /** Locals: 0 n, 1 acc, 2 the exception in flight, 3 the subroutine's return address. */
    private static void writeSleepInTryBody(MethodVisitor method) {
        Label tryStart = new Label();
        Label tryEnd = new Label();
        Label anyHandler = new Label();
        Label subroutine = new Label();
        Label done = new Label();
        method.visitCode();
        method.visitTryCatchBlock(tryStart, tryEnd, anyHandler, null);
        method.visitVarInsn(ILOAD, 0);
        method.visitIntInsn(BIPUSH, 10);
        method.visitInsn(IMUL);
        method.visitVarInsn(ISTORE, 1);
        method.visitLabel(tryStart);
        sleep(method, 2);
        method.visitIincInsn(1, 1);
        method.visitLabel(tryEnd);
        method.visitJumpInsn(JSR, subroutine);
        method.visitJumpInsn(GOTO, done);
        writeCatchAnyThroughSubroutine(method, anyHandler, subroutine);
        method.visitLabel(subroutine);
        method.visitVarInsn(ASTORE, 3);
        method.visitIincInsn(1, 100);
        method.visitVarInsn(RET, 3);
        method.visitLabel(done);
        method.visitVarInsn(ILOAD, 1);
        method.visitInsn(IRETURN);
        method.visitMaxs(0, 0);
        method.visitEnd();
    }

    /** Locals as in {@link #writeSleepInTryBody}; the sleep is inside the subroutine. */
    private static void writeSleepInSubroutine(MethodVisitor method) {
        Label tryStart = new Label();
        Label tryEnd = new Label();
        Label anyHandler = new Label();
        Label subroutine = new Label();
        Label done = new Label();
        method.visitCode();
        method.visitTryCatchBlock(tryStart, tryEnd, anyHandler, null);
        method.visitVarInsn(ILOAD, 0);
        method.visitVarInsn(ISTORE, 1);
        method.visitLabel(tryStart);
        method.visitIincInsn(1, 1);
        method.visitLabel(tryEnd);
        method.visitJumpInsn(JSR, subroutine);
        method.visitJumpInsn(GOTO, done);
        writeCatchAnyThroughSubroutine(method, anyHandler, subroutine);
        method.visitLabel(subroutine);
        method.visitVarInsn(ASTORE, 3);
        sleep(method, 1);
        method.visitIincInsn(1, 1000);
        method.visitVarInsn(RET, 3);
        method.visitLabel(done);
        method.visitVarInsn(ILOAD, 1);
        method.visitInsn(IRETURN);
        method.visitMaxs(0, 0);
        method.visitEnd();
    }

    /**
     * Locals as in {@link #writeSleepInTryBody}. The try body throws after its sleep, so the subroutine runs on
     * the exceptional path and sleeps there; the outer handler catches the rethrown exception.
     */
    private static void writeThrowInTryBody(MethodVisitor method) {
        Label outerStart = new Label();
        Label outerEnd = new Label();
        Label outerHandler = new Label();
        Label tryStart = new Label();
        Label tryEnd = new Label();
        Label anyHandler = new Label();
        Label subroutine = new Label();
        method.visitCode();
        method.visitTryCatchBlock(tryStart, tryEnd, anyHandler, null);
        method.visitTryCatchBlock(outerStart, outerEnd, outerHandler, STATE_EXCEPTION);
        method.visitVarInsn(ILOAD, 0);
        method.visitVarInsn(ISTORE, 1);
        method.visitLabel(outerStart);
        method.visitLabel(tryStart);
        method.visitIincInsn(1, 1);
        sleep(method, 1);
        method.visitTypeInsn(NEW, STATE_EXCEPTION);
        method.visitInsn(DUP);
        method.visitMethodInsn(INVOKESPECIAL, STATE_EXCEPTION, "<init>", "()V", false);
        method.visitInsn(ATHROW);
        method.visitLabel(tryEnd);
        writeCatchAnyThroughSubroutine(method, anyHandler, subroutine);
        method.visitLabel(subroutine);
        method.visitVarInsn(ASTORE, 3);
        method.visitIincInsn(1, 100);
        sleep(method, 1);
        method.visitVarInsn(RET, 3);
        method.visitLabel(outerEnd);
        method.visitLabel(outerHandler);
        method.visitInsn(POP);
        method.visitVarInsn(ILOAD, 1);
        method.visitIntInsn(SIPUSH, 1000);
        method.visitInsn(IADD);
        method.visitInsn(IRETURN);
        method.visitMaxs(0, 0);
        method.visitEnd();
    }

    /** The catch-any handler old javac emitted for finally: store the exception, run the subroutine, rethrow. */
    private static void writeCatchAnyThroughSubroutine(MethodVisitor method, Label handler, Label subroutine) {
        method.visitLabel(handler);
        method.visitVarInsn(ASTORE, 2);
        method.visitJumpInsn(JSR, subroutine);
        method.visitVarInsn(ALOAD, 2);
        method.visitInsn(ATHROW);
    }

    private static void sleep(MethodVisitor method, long millis) {
        method.visitLdcInsn(millis);
        method.visitMethodInsn(INVOKESTATIC, THREAD, "sleep", "(J)V", false);
    }
}
