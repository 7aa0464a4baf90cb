package org.picothreads.transform.validation;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;
import org.picothreads.transform.ClassOutput;
import org.picothreads.transform.testing.ClassVerification;
import org.picothreads.transform.testing.TestClasspath;
import org.picothreads.transform.testing.TransformingClassLoader;

/** Every class of every target package, transformed together in one call, passes ASM's verifier and the JVM's. */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class EveryTargetClassVerifiesTest {

    @Test
    void every_class_of_every_target_package_passes_both_verifiers_after_rewriting() {
        int classFiles = TestClasspath.classFilesOf(ValidationTargets.PACKAGE_PREFIXES).size();
        TransformingClassLoader loader = transformAllTargets();

        assertEquals(classFiles, loader.classNames().size());
        List<Executable> checks = new ArrayList<>();
        for (String className : loader.classNames()) {
            checks.add(() -> assertNull(
                    ClassVerification.asmProblems(loader.rewrittenBytes(className), loader), className));
            checks.add(() -> assertNull(ClassVerification.jvmProblems(className, loader), className));
        }
        assertAll(checks);
    }

    @Test
    void every_target_that_starts_threads_is_rewritten() {
        Map<String, ClassOutput> outputs = transformAllTargets().transformResult().classes().stream()
                .collect(Collectors.toMap(ClassOutput::className, Function.identity()));

        List<Executable> checks = new ArrayList<>();
        List<Class<?>> targets = new ArrayList<>(ValidationTargets.THREADED);
        targets.add(ValidationTargets.PLATFORM_THREAD_TARGET);
        for (Class<?> target : targets) {
            String internalName = target.getName().replace('.', '/');
            checks.add(() -> assertTrue(outputs.containsKey(internalName) && outputs.get(internalName).changed(),
                    internalName + " uses java.lang.Thread but was not rewritten"));
        }
        assertAll(checks);
    }

    private static TransformingClassLoader transformAllTargets() {
        return TransformingClassLoader.forPackages(ValidationTargets.PACKAGE_PREFIXES.toArray(String[]::new));
    }
}
