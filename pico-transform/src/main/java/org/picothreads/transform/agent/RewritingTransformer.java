package org.picothreads.transform.agent;

import java.io.PrintStream;
import java.lang.instrument.ClassFileTransformer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.CodeSource;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.picothreads.transform.ClassInput;
import org.picothreads.transform.ClassOutput;
import org.picothreads.transform.TransformException;
import org.picothreads.transform.TransformResult;
import org.picothreads.transform.io.ClassNameFilter;
import org.picothreads.transform.io.ContainerException;
import org.picothreads.transform.io.StagedOutput;
import org.picothreads.transform.report.ClassReport;
import org.picothreads.transform.report.ReportJson;
import org.picothreads.transform.report.TransformReport;

/**
 * Hands the JVM the rewritten class file of each chosen class as it loads, and keeps the report of every class it
 * was given. A class that cannot be rewritten is loaded unchanged, with one warning line naming it. With a cache, a
 * class found there is handed over without a rewrite (and without a report), and each class rewritten is kept there.
 */
final class RewritingTransformer implements ClassFileTransformer {
    private final ClassNameFilter filter;
    /** Rewrites each class as it loads. */
    private final ClassRewriting rewriting;
    /** The persistent cache of rewritten classes, or null. */
    private final RewriteCache cache;
    private final PrintStream warnings;
    /** The classes already warned about, so that each gets one warning line. */
    private final Set<String> warned = ConcurrentHashMap.newKeySet();
    /** Whether the warning about sockets without pico-net was printed (it names the first class only). */
    private final AtomicBoolean warnedAboutSockets = new AtomicBoolean();
    /** The report of each class given to the transformer, in the order they loaded. */
    private final List<ClassReport> reports = new ArrayList<>();


    RewritingTransformer(ClassNameFilter filter, ClassRewriting rewriting, PrintStream warnings) {
        this(filter, rewriting, null, warnings);
    }

    RewritingTransformer(ClassNameFilter filter, ClassRewriting rewriting, RewriteCache cache, PrintStream warnings) {
        this.filter = filter;
        this.rewriting = rewriting;
        this.cache = cache;
        this.warnings = warnings;
    }

    @Override
    public byte[] transform(ClassLoader loader, String className, Class<?> classBeingRedefined,
            ProtectionDomain protectionDomain, byte[] classFile) {
        if (className == null || classBeingRedefined != null || loader == null
                || loader == ClassLoader.getPlatformClassLoader() || !PicoAgent.mayRewrite(className)
                || !filter.accepts(className)) {
            return null;
        }
        try {
            RewriteCache.Entry cached = cache == null ? null : cache.find(className, classFile);
            if (cached != null) {
                warnAboutSockets(cached.socketUser());
                return cached.rewritten();
            }
            ClassInput input = new ClassInput(sourceOf(className, protectionDomain), classFile);
            TransformResult result = rewriting.rewrite(input);
            String socketUser = rewriting.socketUserWithoutPicoNet(input);
            warnAboutSockets(socketUser);
            synchronized (reports) {
                reports.addAll(result.report().classes());
            }
            for (ClassReport report : result.report().classes()) {
                if (report.leftUnrewritten() != null) {
                    warnOnce(className, report.leftUnrewritten());
                }
            }
            ClassOutput output = result.classes().get(0);
            byte[] rewritten = output.changed() ? output.bytes() : null;
            if (cache != null) {
                cache.store(className, classFile, rewritten, socketUser);
            }
            return rewritten;
        } catch (TransformException refused) {
            warnOnce(className, refused.getMessage());
            return null;
        } catch (RuntimeException | LinkageError | StackOverflowError failure) {
            warnOnce(className, failure.toString());
            return null;
        }
    }

    private void warnAboutSockets(String socketUser) {
        if (socketUser != null && warnedAboutSockets.compareAndSet(false, true)) {
            warnings.println(PicoAgent.WARNING + socketUser + " uses sockets, but pico-net is not on the class path:"
                    + " its socket calls block the carrier, and every PicoThread waits with them; add pico-net.jar to"
                    + " -cp");
        }
    }

    private void warnOnce(String className, String reason) {
        if (warned.add(className)) {
            warnings.println(PicoAgent.WARNING + "cannot rewrite " + className.replace('/', '.')
                    + ", it is loaded unchanged: " + PicoAgent.oneLine(reason));
        }
    }

    /** The report of the classes given to the transformer so far. */
    TransformReport report() {
        synchronized (reports) {
            return new TransformReport(List.copyOf(reports));
        }
    }

    /** Writes the report so far as the command line's {@code --report} does, replacing the file in one step. */
    void writeReport(Path file) throws ContainerException {
        byte[] json = ReportJson.toJson(report()).getBytes(StandardCharsets.UTF_8);
        try (StagedOutput staged = StagedOutput.ofFile(file, json)) {
            staged.commit();
        }
    }

    private static String sourceOf(String className, ProtectionDomain protectionDomain) {
        CodeSource codeSource = protectionDomain == null ? null : protectionDomain.getCodeSource();
        String classFile = className + ".class";
        return codeSource == null || codeSource.getLocation() == null ? classFile
                : codeSource.getLocation() + "!/" + classFile;
    }
}
