package org.picothreads.transform.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.picothreads.transform.testing.ValidationAssertions.assertSameResult;

import java.io.ObjectStreamClass;
import java.lang.invoke.LambdaConversionException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.picothreads.runtime.PicoThread;
import org.picothreads.runtime.internal.Continuation;
import org.picothreads.runtime.internal.Frame;
import org.picothreads.runtime.internal.Rewritten;
import org.picothreads.runtime.internal.ThreadCalls;
import org.picothreads.runtime.internal.ThreadEntries;
import org.picothreads.targets.forgery.DeepReflectionForger;
import org.picothreads.targets.forgery.victim.DeeplyForged;
import org.picothreads.targets.forgery.victim.ForgedResumes;
import org.picothreads.targets.forgery.victim.ThreadEntryVictim;
import org.picothreads.transform.testing.GeneratedClassLoader;
import org.picothreads.transform.testing.RuntimeStatistics;
import org.picothreads.transform.testing.TargetRunner;
import org.picothreads.transform.testing.TransformingClassLoader;

/** A hand-written class that was not rewritten cannot reach another method's saved activations. */
class ForgingTest {
    private static final String KEY = "org/picothreads/targets/forgery/victim/ForgedResumes.descend(II)I";
    private static final String FORGER = "org.picothreads.targets.forgery.Forger";
    private static final String REFUSED = "java.lang.IllegalCallerException: PicoThreads: ";
    private static final String ENTRY_REFUSAL = "only the runtime calls a resume entry, to re-enter a saved activation";
    private static final String TAKE_OVER_REFUSAL = "only a rewritten activation that the runtime resumes after a call,"
            + " on its PicoThread, takes the outcome of that call";
    private static final String HAND_OVER_REFUSAL = "only a resume entry, on the PicoThread the runtime resumes, hands"
            + " over the outcome of the method it re-entered";

    @Test
    void a_forging_class_gets_a_clear_error_at_every_entry_point_and_the_victim_thread_gives_the_same_result()
            throws Exception {
        String expected = String.join("\n",
                "victim sum 370",
                "resumeChecked with its own lookup: " + REFUSED + FORGER + " may not call Continuation.resume for "
                        + KEY + ": the class was not rewritten by PicoThreads",
                "captureChecked with its own lookup: " + REFUSED + FORGER + " may not call Continuation.capture for "
                        + KEY + ": the class was not rewritten by PicoThreads",
                "link with its own lookup: " + REFUSED + FORGER + " may not call Continuation.resume for " + KEY
                        + ": the class was not rewritten by PicoThreads",
                "link with a private lookup in the victim's class: " + REFUSED + ForgedResumes.class.getName()
                        + " may not call Continuation.capture for " + KEY
                        + ": the lookup is not the class's own (MethodHandles.lookup() in the class itself)",
                "resume by reflection: java.lang.IllegalAccessException",
                "capture by reflection: java.lang.IllegalAccessException",
                "the victim's resume entry by reflection: java.lang.IllegalAccessException",
                "suspend by reflection: java.lang.IllegalAccessException",
                "setting the restoring hint by reflection: java.lang.IllegalAccessException",
                "reading the caller token by reflection: java.lang.IllegalAccessException",
                "link by reflection with its own lookup: " + REFUSED + FORGER + " may not call Continuation.resume for "
                        + KEY + ": the class was not rewritten by PicoThreads",
                "resumeEntryCalled: " + REFUSED + "Continuation.resumeEntryCalled was refused: " + ENTRY_REFUSAL,
                "resultVoid: " + REFUSED + "Continuation.resultVoid was refused: " + TAKE_OVER_REFUSAL,
                "resultInt: " + REFUSED + "Continuation.resultInt was refused: " + TAKE_OVER_REFUSAL,
                "resultLong: " + REFUSED + "Continuation.resultLong was refused: " + TAKE_OVER_REFUSAL,
                "resultFloat: " + REFUSED + "Continuation.resultFloat was refused: " + TAKE_OVER_REFUSAL,
                "resultDouble: " + REFUSED + "Continuation.resultDouble was refused: " + TAKE_OVER_REFUSAL,
                "resultObject: " + REFUSED + "Continuation.resultObject was refused: " + TAKE_OVER_REFUSAL,
                "20 of 20 rounds met the same");
        assertEquals(expected, TargetRunner.runPlain(ForgedResumes.class));
        RuntimeStatistics before = RuntimeStatistics.now();
        assertSameResult(ForgedResumes.class);
        RuntimeStatistics during = RuntimeStatistics.now().since(before);
        // the victim suspended at each of its 20 sleeps, three frames deep, and came back each time
        assertTrue(during.suspensions() >= 20 && during.resumes() >= 20, during.toString());
    }

    @Test
    void the_thread_entry_bootstrap_gives_a_hand_written_class_a_lambda_the_runtime_never_enters_fresh()
            throws Throwable {
        Class<?> victim = TransformingClassLoader.forPackages(ThreadEntryVictim.class.getPackageName() + ".")
                .transformedCopyOf(ThreadEntryVictim.class);
        assertEquals(List.of("body()V"), Arrays.asList(victim.getAnnotation(Rewritten.class).threadEntries()));
        MethodType run = MethodType.methodType(void.class);
        MethodType factory = MethodType.methodType(Runnable.class);
        // with a lookup teleported into the victim, the JDK's own bootstrap refuses (it needs the class's own)
        MethodHandles.Lookup teleported = MethodHandles.privateLookupIn(victim, MethodHandles.lookup());
        assertThrows(LambdaConversionException.class, () -> ThreadEntries.metafactory(teleported, "run", factory, run,
                teleported.findStatic(victim, "body", run), run));
        // with the own lookup of a hand-written class beside the victim (in its class loader and package, as the
        // proxy must resolve the victim's rewritten class), naming the victim's thread entry, the lambda works but
        // starts through its proxy: each thread's first capture walks the stack, where the victim's own Runnable of
        // the same body needs no walk
        MethodHandles.Lookup own = (MethodHandles.Lookup) teleported.defineClass(lookupHandingClass(victim))
                .getMethod("lookup").invoke(null);
        Runnable forged = (Runnable) ThreadEntries.metafactory(own, "run", factory, run,
                own.findStatic(victim, "body", run), run).getTarget().invoke();
        Runnable victims = (Runnable) victim.getMethod("own").invoke(null);
        AtomicInteger runs = (AtomicInteger) victim.getField("RUNS").get(null);
        int threads = 3;
        RuntimeStatistics before = RuntimeStatistics.now();
        runInPicoThreads(forged, threads);
        RuntimeStatistics forgedRuns = RuntimeStatistics.now().since(before);
        before = RuntimeStatistics.now();
        runInPicoThreads(victims, threads);
        RuntimeStatistics victimsRuns = RuntimeStatistics.now().since(before);
        assertEquals(2 * threads, runs.get(), () -> forgedRuns + " " + victimsRuns);
        assertTrue(forgedRuns.suspensions() >= threads && victimsRuns.suspensions() >= threads,
                forgedRuns + " " + victimsRuns);
        assertTrue(forgedRuns.framesChecked() >= threads, forgedRuns::toString);
        assertTrue(victimsRuns.framesChecked() < threads, victimsRuns::toString);
    }

    /** A class, not rewritten, in the package of {@code victim}, whose {@code lookup()} hands out its own lookup. */
    private static byte[] lookupHandingClass(Class<?> victim) {
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS);
        String name = victim.getPackageName().replace('.', '/') + "/HandWrittenLookup";
        writer.visit(Opcodes.V17, Opcodes.ACC_PUBLIC | Opcodes.ACC_FINAL, name, null, "java/lang/Object", null);
        MethodVisitor lookup = writer.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "lookup",
                "()Ljava/lang/invoke/MethodHandles$Lookup;", null, null);
        lookup.visitCode();
        lookup.visitMethodInsn(Opcodes.INVOKESTATIC, "java/lang/invoke/MethodHandles", "lookup",
                "()Ljava/lang/invoke/MethodHandles$Lookup;", false);
        lookup.visitInsn(Opcodes.ARETURN);
        lookup.visitMaxs(0, 0);
        lookup.visitEnd();
        writer.visitEnd();
        return writer.toByteArray();
    }

    private static void runInPicoThreads(Runnable body, int count) throws InterruptedException {
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = new ArrayList<>();
        for (int index = 0; index < count; index++) {
            Thread thread = new PicoThread(body);
            thread.setUncaughtExceptionHandler((failed, failure) -> failures.add(failure));
            threads.add(thread);
        }
        for (Thread thread : threads) {
            thread.start();
            ThreadCalls.join(thread); // as rewritten code joins: Thread's own join sees no JVM thread
        }
        assertEquals(List.of(), failures);
    }

    @Test
    void continuations_capture_helpers_and_the_resume_entry_called_by_deep_reflection_are_refused_clearly_and_change_nothing()
            throws Exception {
        assertEquals("victim sum 370\n20 of 20 rounds met the same", TargetRunner.runPlain(DeeplyForged.class));
        Class<?> transformed = TransformingClassLoader.forPackages(DeeplyForged.class.getPackageName() + ".")
                .transformedCopyOf(DeeplyForged.class);
        RuntimeStatistics before = RuntimeStatistics.now();
        List<String> lines = TargetRunner.run(transformed).lines().toList();
        RuntimeStatistics during = RuntimeStatistics.now().since(before);

        // the victim gives the platform sum, and every round of calls, on a PicoThread, met the same refusals
        assertEquals("victim sum 370", lines.get(0));
        assertEquals("20 of 20 rounds met the same", lines.get(lines.size() - 1));
        // the victim suspended at each of its 20 sleeps, three frames deep, and came back each time; nothing pinned
        assertTrue(during.suspensions() >= 20 && during.resumes() >= 20, during.toString());
        assertEquals(0, during.pinnedBlocks(), during.toString());
        List<String> calls = lines.subList(1, lines.size() - 1);
        String owner = "org/picothreads/targets/forgery/victim/DeeplyForged.";
        String frame = "class " + Frame.class.getName();
        String continuationRefusal = " was refused: only its class's resume entry calls it, when the runtime re-enters"
                + " a saved activation of the method";
        assertTrue(calls.contains("descend[int, int, " + frame + "] with zeros and nulls: " + REFUSED
                + "the continuation of " + owner + "descend(II)I" + continuationRefusal), calls::toString);
        assertTrue(calls.contains("descend[int, int, " + frame + "] with plausible values: " + REFUSED
                + "the continuation of " + owner + "descend(II)I" + continuationRefusal), calls::toString);
        List<String> continuations = new ArrayList<>();
        int captureHelpers = 0;
        int resumeEntries = 0;
        for (String call : calls) {
            String name = call.substring(0, call.indexOf('['));
            if (name.equals("$picothreads$resume")) {
                resumeEntries++;
                assertTrue(call.endsWith(": " + REFUSED + "Continuation.resumeEntryCalled was refused: " + ENTRY_REFUSAL),
                        call);
            } else if (name.startsWith("$picothreads$capture$")) {
                captureHelpers++;
                assertTrue(call.endsWith(": " + REFUSED + "Continuation.capture was refused: only a capture handler,"
                        + " on the PicoThread being captured, saves an activation"), call);
            } else {
                continuations.add(name);
                assertTrue(call.contains(": " + REFUSED + "the continuation of " + owner + name + "(")
                        && call.endsWith(continuationRefusal), call);
            }
        }
        assertEquals(List.of("descend", "descend", "lambda$run$0", "lambda$run$0", "lambda$run$1", "lambda$run$1", "nap",
                "nap", "run", "run"), continuations.stream().sorted().toList());
        assertEquals(2, resumeEntries);
        assertTrue(captureHelpers >= 2 * 5, calls::toString);
        // on a platform thread the same calls meet the same refusals
        assertEquals(calls, DeepReflectionForger.attack(transformed, null));
    }

    @Test
    void the_hand_over_between_resumed_activations_refuses_a_platform_thread_with_a_clear_error_and_changes_nothing() {
        Map<String, Executable> entries = new LinkedHashMap<>();
        entries.put("resumeEntryCalled", Continuation::resumeEntryCalled);
        entries.put("returned", () -> Continuation.returned(7, 'I'));
        entries.put("returnedObject", () -> Continuation.returnedObject("forged"));
        entries.put("resultVoid", Continuation::resultVoid);
        entries.put("resultInt", Continuation::resultInt);
        entries.put("resultLong", Continuation::resultLong);
        entries.put("resultFloat", Continuation::resultFloat);
        entries.put("resultDouble", Continuation::resultDouble);
        entries.put("resultObject", Continuation::resultObject);
        int restoring = Continuation.restoring();
        entries.forEach((entry, call) -> {
            IllegalCallerException refused = assertThrows(IllegalCallerException.class, call, entry);
            String reason = entry.equals("resumeEntryCalled") ? ENTRY_REFUSAL
                    : entry.startsWith("returned") ? HAND_OVER_REFUSAL : TAKE_OVER_REFUSAL;
            assertEquals("PicoThreads: Continuation." + entry + " was refused: " + reason, refused.getMessage());
        });
        assertEquals(restoring, Continuation.restoring());
    }

    @Test
    void linking_the_entry_points_adds_only_private_synthetic_methods_and_keeps_the_serial_version()
            throws Exception {
        Class<?> transformed = TransformingClassLoader.forPackages(ForgedResumes.class.getPackageName() + ".")
                .transformedCopyOf(ForgedResumes.class);
        List<String> original = members(ForgedResumes.class);
        List<String> added = new ArrayList<>(members(transformed));
        assertTrue(added.containsAll(original), added::toString);
        added.removeAll(original);
        List<String> continuations = new ArrayList<>();
        for (Method method : transformed.getDeclaredMethods()) {
            String member = Modifier.toString(method.getModifiers()) + " " + method.getName()
                    + Arrays.toString(method.getParameterTypes()) + method.getReturnType().getName();
            if (!added.contains(member)) {
                continue;
            }
            assertTrue(method.isSynthetic() && Modifier.isPrivate(method.getModifiers()), member);
            Class<?>[] parameters = method.getParameterTypes();
            if (parameters.length > 0 && parameters[parameters.length - 1] == Frame.class) {
                // a continuation: a capturing method's copy, with the same name, that holds its restore code
                ForgedResumes.class.getDeclaredMethod(method.getName(), Arrays.copyOf(parameters, parameters.length - 1));
                continuations.add(method.getName());
            } else {
                assertTrue(method.getName().equals("$picothreads$resume")
                        || method.getName().startsWith("$picothreads$capture$"), member);
            }
        }
        assertTrue(added.contains("private static $picothreads$resume[class java.lang.Object, int]boolean"),
                added::toString);
        continuations.sort(null);
        assertEquals(List.of("descend", "lambda$run$0", "lambda$run$1", "nap", "run"), continuations);
        assertEquals(ObjectStreamClass.lookupAny(ForgedResumes.class).getSerialVersionUID(),
                ObjectStreamClass.lookupAny(transformed).getSerialVersionUID());
    }

    @Test
    void a_class_compiled_against_the_old_public_entries_gets_an_illegal_access_error_from_the_jvm() throws Exception {
        // What a forger compiled against the runtime before this change would do: call resume and capture, write the
        // restoring hint, read the caller token, directly in bytecode.
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        writer.visit(Opcodes.V17, Opcodes.ACC_PUBLIC | Opcodes.ACC_FINAL, "forgery/OldForger", null,
                "java/lang/Object", null);
        String continuation = "org/picothreads/runtime/internal/Continuation";
        String frame = "Lorg/picothreads/runtime/internal/Frame;";
        MethodVisitor resume = writer.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "resume", "()V", null, null);
        resume.visitLdcInsn(KEY);
        resume.visitMethodInsn(Opcodes.INVOKESTATIC, continuation, "resume", "(Ljava/lang/String;)" + frame, false);
        resume.visitInsn(Opcodes.POP);
        resume.visitInsn(Opcodes.RETURN);
        resume.visitMaxs(0, 0);
        MethodVisitor capture = writer.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "capture", "()V", null,
                null);
        // capture as it is now (private), since one compiled against the old public descriptor finds no such method
        capture.visitInsn(Opcodes.ACONST_NULL);
        capture.visitInsn(Opcodes.ACONST_NULL);
        capture.visitInsn(Opcodes.ICONST_0);
        capture.visitInsn(Opcodes.LCONST_0);
        capture.visitMethodInsn(Opcodes.INVOKESTATIC, continuation, "capture",
                "(Ljava/lang/Object;Lorg/picothreads/runtime/internal/SavedMethod;IJ)" + frame, false);
        capture.visitInsn(Opcodes.POP);
        capture.visitInsn(Opcodes.RETURN);
        capture.visitMaxs(0, 0);
        MethodVisitor hint = writer.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "setHint", "()V", null, null);
        // the hint is each carrier's own mode (a static count of Continuation before), written on any carrier: the
        // null passes the cast, and the JVM refuses the field before it would find no object
        hint.visitInsn(Opcodes.ACONST_NULL);
        hint.visitTypeInsn(Opcodes.CHECKCAST, "org/picothreads/runtime/internal/Carrier");
        hint.visitInsn(Opcodes.ICONST_1);
        hint.visitFieldInsn(Opcodes.PUTFIELD, "org/picothreads/runtime/internal/Carrier", "restoring", "Z");
        hint.visitInsn(Opcodes.RETURN);
        hint.visitMaxs(0, 0);
        MethodVisitor token = writer.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "readToken", "()V", null,
                null);
        // the token is the carrier's, in its frame's private field (a static field of CallerToken before)
        token.visitInsn(Opcodes.ACONST_NULL);
        token.visitFieldInsn(Opcodes.GETFIELD, "org/picothreads/runtime/internal/Frame", "callerToken",
                "Ljava/lang/Object;");
        token.visitInsn(Opcodes.POP);
        token.visitInsn(Opcodes.RETURN);
        token.visitMaxs(0, 0);
        writer.visitEnd();
        Class<?> forger = new GeneratedClassLoader(Map.of("forgery.OldForger", writer.toByteArray()))
                .loadClass("forgery.OldForger");
        for (String attempt : List.of("resume", "capture", "setHint", "readToken")) {
            IllegalAccessError refused = assertThrows(IllegalAccessError.class,
                    () -> TargetRunner.callStatic(forger, attempt, new Class<?>[0]), attempt);
            // the hint's field is package-private (the runtime's package sets it), the others private
            String refusal = attempt.equals("setHint")
                    ? "tried to access field org.picothreads.runtime.internal.Carrier.restoring" : "private";
            assertTrue(refused.getMessage().contains("forgery.OldForger") && refused.getMessage().contains(refusal),
                    refused.getMessage());
        }
    }

    /** The declared fields, methods and constructors with their modifiers and types, sorted. */
    private static List<String> members(Class<?> type) {
        List<String> members = new ArrayList<>();
        for (Field field : type.getDeclaredFields()) {
            members.add(Modifier.toString(field.getModifiers()) + " " + field.getType().getName() + " " + field.getName());
        }
        for (Method method : type.getDeclaredMethods()) {
            members.add(Modifier.toString(method.getModifiers()) + " " + method.getName()
                    + Arrays.toString(method.getParameterTypes()) + method.getReturnType().getName());
        }
        for (Constructor<?> constructor : type.getDeclaredConstructors()) {
            members.add(Modifier.toString(constructor.getModifiers()) + " <init>"
                    + Arrays.toString(constructor.getParameterTypes()));
        }
        members.sort(null);
        return members;
    }
}
