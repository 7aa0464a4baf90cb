package org.picothreads.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.picothreads.benchmarks.workload.CallHeavyCode;
import org.picothreads.transform.ClassInput;
import org.picothreads.transform.ClassOutput;
import org.picothreads.transform.PicoTransformer;
import org.picothreads.transform.TransformException;

/**
 * Loads a fresh copy of the workload classes in a class loader of their own, either as javac wrote them or
 * rewritten by {@link PicoTransformer}, the transformer's facade (what the plugin and the agent call). Both copies
 * are loaded the same way, so the only difference the JIT sees is the rewrite.
 */
public final class WorkloadLoader {

    /** The workload classes, by binary name. */
    private static final List<String> WORKLOAD_CLASSES = List.of(
            CallHeavyCode.class.getName(), CallHeavyCode.class.getName() + "$Node");

    private WorkloadLoader() {
    }

    /** A new instance of {@link CallHeavyCode}, from its own class loader; rewritten when {@code transformed}. */
    public static CallHeavy load(boolean transformed) {
        Map<String, byte[]> classes = new HashMap<>();
        for (String name : WORKLOAD_CLASSES) {
            classes.put(name, read(name));
        }
        if (transformed) {
            classes = transform(classes);
        }
        try {
            return (CallHeavy) new IsolatingLoader(classes, CallHeavy.class.getClassLoader())
                    .loadClass(CallHeavyCode.class.getName()).getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Map<String, byte[]> transform(Map<String, byte[]> classes) {
        List<ClassInput> inputs = new ArrayList<>();
        classes.forEach((name, bytes) -> inputs.add(new ClassInput(name.replace('.', '/') + ".class", bytes)));
        Map<String, byte[]> rewritten = new HashMap<>();
        try {
            for (ClassOutput output : PicoTransformer.withClasspath(List.of(codeSource())).transform(inputs).classes()) {
                if (output.className().endsWith("CallHeavyCode") && !output.changed()) {
                    throw new IllegalStateException("the transformer left " + output.className()
                            + " unchanged: the overhead benchmark would compare a class with itself");
                }
                rewritten.put(output.className().replace('/', '.'), output.bytes());
            }
        } catch (TransformException e) {
            throw new IllegalStateException(e);
        }
        return rewritten;
    }

    /** The jar or directory the benchmark classes come from: the interface the workload implements is there. */
    private static Path codeSource() {
        try {
            return Path.of(CallHeavy.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] read(String name) {
        String resource = name.replace('.', '/') + ".class";
        try (InputStream in = WorkloadLoader.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("no class file " + resource);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Defines the given classes itself (child first) and delegates every other class to its parent. */
    private static final class IsolatingLoader extends ClassLoader {
        private final Map<String, byte[]> classes;

        IsolatingLoader(Map<String, byte[]> classes, ClassLoader parent) {
            super(parent);
            this.classes = classes;
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            synchronized (getClassLoadingLock(name)) {
                byte[] bytes = classes.get(name);
                if (bytes == null) {
                    return super.loadClass(name, resolve);
                }
                Class<?> loaded = findLoadedClass(name);
                if (loaded == null) {
                    loaded = defineClass(name, bytes, 0, bytes.length);
                }
                if (resolve) {
                    resolveClass(loaded);
                }
                return loaded;
            }
        }
    }
}
