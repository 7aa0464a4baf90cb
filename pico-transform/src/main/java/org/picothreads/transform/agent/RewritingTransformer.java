package org.picothreads.transform.agent;

import java.io.PrintStream;
import java.lang.instrument.ClassFileTransformer;
import java.security.CodeSource;
import java.security.ProtectionDomain;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.picothreads.transform.ClassInput;
import org.picothreads.transform.ClassOutput;
import org.picothreads.transform.TransformException;
import org.picothreads.transform.io.ClassNameFilter;

/**
 * Hands the JVM the rewritten class file of each chosen class as it loads: the one prepared at startup when the
 * loading class file is the one read then, otherwise the class rewritten alone. A class that cannot be rewritten
 * is loaded unchanged, with one warning line naming it.
 */
final class RewritingTransformer implements ClassFileTransformer {
    private final PreparedClasses prepared;
    private final ClassNameFilter filter;
    /** Rewrites one class alone, for the classes that were not read at startup. */
    private final ClassRewriting aloneRewriting;
    private final PrintStream warnings;
    /** The classes already warned about, so that each gets one warning line. */
    private final Set<String> warned = ConcurrentHashMap.newKeySet();

    RewritingTransformer(PreparedClasses prepared, ClassNameFilter filter, ClassRewriting aloneRewriting,
            PrintStream warnings) {
        this.prepared = prepared;
        this.filter = filter;
        this.aloneRewriting = aloneRewriting;
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
            PreparedClasses.Prepared startup = prepared.find(className);
            if (startup != null && startup.isFrom(classFile)) {
                return startup.rewritten();
            }
            return rewriteAlone(className, protectionDomain, classFile);
        } catch (RuntimeException | LinkageError | StackOverflowError failure) {
            warnOnce(className, failure.toString());
            return null;
        }
    }

    private byte[] rewriteAlone(String className, ProtectionDomain protectionDomain, byte[] classFile) {
        try {
            List<ClassOutput> outputs = aloneRewriting.rewrite(List.of(new ClassInput(sourceOf(className,
                    protectionDomain), classFile))).classes();
            return outputs.get(0).changed() ? outputs.get(0).bytes() : null;
        } catch (TransformException refused) {
            warnOnce(className, refused.getMessage());
            return null;
        }
    }

    private void warnOnce(String className, String reason) {
        if (warned.add(className)) {
            warnings.println(PicoAgent.WARNING + "cannot rewrite " + className.replace('/', '.')
                    + ", it is loaded unchanged: " + PreparedClasses.oneLine(reason));
        }
    }

    private static String sourceOf(String className, ProtectionDomain protectionDomain) {
        CodeSource codeSource = protectionDomain == null ? null : protectionDomain.getCodeSource();
        String classFile = className + ".class";
        return codeSource == null || codeSource.getLocation() == null ? classFile
                : codeSource.getLocation() + "!/" + classFile;
    }
}
