package org.picothreads.transform.agent;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.instrument.Instrumentation;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.picothreads.transform.PicoTransformer;
import org.picothreads.transform.TransformException;
import org.picothreads.transform.io.ClassNameFilter;
import org.picothreads.transform.io.ContainerException;
import org.picothreads.transform.report.ReportJson;

/**
 * The Java agent ({@code -javaagent:pico-agent.jar}): rewrites the application's classes as they load, so that a
 * program runs on PicoThreads without a change to its build.
 *
 * <p>Each chosen class is rewritten as it loads ({@link PicoTransformer.Loading}): the analysis reads the class path's
 * class files only as far as the loaded classes' calls reach, and keeps what it decided from one class to the next;
 * nothing is read before {@code main}. A class whose bytes are not the class path's (another class loader's) is
 * rewritten alone. JDK classes and PicoThreads' own classes are never rewritten. The agent jar holds the runtime, so nothing else needs
 * to be on the class path.
 *
 * <p>With the persistent cache ({@link RewriteCache}, on by default), the agent checksums the class path at startup,
 * and a class whose rewrite is cached loads without the transformer; the transformer is set up when the first class
 * is not in the cache.
 */
public final class PicoAgent {
    /** The start of every line the agent prints. */
    static final String PREFIX = "pico-agent: ";
    static final String WARNING = PREFIX + "warning: ";
    /** The exit code when the agent cannot start. */
    static final int FAILURE = 1;

    private PicoAgent() {
    }

    /**
     * The agent's entry point before {@code main}; {@code arguments} is the text after {@code pico-agent.jar=}. A
     * wrong option or a failed startup rewrite ends the JVM with one line on standard error and exit code 1, before
     * {@code main} runs (an exception thrown from here would abort the JVM with a native stack dump instead).
     */
    public static void premain(String arguments, Instrumentation instrumentation) {
        try {
            install(AgentOptions.parse(arguments), arguments, instrumentation, System.err);
        } catch (IllegalArgumentException wrongOption) {
            stop(wrongOption.getMessage());
        } catch (TransformException | RuntimeException failure) {
            stop(PREFIX + "error: cannot start: " + oneLine(String.valueOf(failure.getMessage())));
        }
    }

    /** Prints the line and ends the JVM with exit code 1. */
    private static void stop(String line) {
        System.err.println(line);
        System.err.flush();
        System.exit(FAILURE);
    }

    static void install(AgentOptions options, String arguments, Instrumentation instrumentation,
            PrintStream messages) throws TransformException {
        setCarriers(options);
        List<Path> classPath = ClassPathEntries.of(System.getProperty("java.class.path", ""));
        List<Path> hierarchyPath = new ArrayList<>(classPath);
        Path agentJar = agentLocation();
        if (agentJar != null && !hierarchyPath.contains(agentJar)) {
            hierarchyPath.add(agentJar);
        }
        PicoTransformer transformerFacade = PicoTransformer.withClasspath(hierarchyPath);
        ClassNameFilter filter = options.filter();
        Predicate<String> program = new Predicate<>() {
            @Override
            public boolean test(String name) {
                return mayRewrite(name) && filter.accepts(name);
            }
        };
        RewriteCache cache = options.usesCache() ? openCache(options.cache(), arguments, hierarchyPath) : null;
        ClassRewriting rewriting = cache == null ? ClassRewriting.by(transformerFacade.forLoading(program))
                : ClassRewriting.whenFirstNeeded(transformerFacade, program);
        RewritingTransformer transformer = new RewritingTransformer(filter, rewriting, cache, messages);
        if (options.report() != null || options.verbose()) {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> atExit(options, transformer, messages),
                    "pico-agent report"));
        }
        instrumentation.addTransformer(transformer, false);
    }

    /** Writes the report and prints the verbose line, for the classes that loaded while the program ran. */
    private static void atExit(AgentOptions options, RewritingTransformer transformer, PrintStream messages) {
        if (options.report() != null) {
            try {
                transformer.writeReport(options.report());
            } catch (ContainerException unwritable) {
                messages.println(WARNING + "cannot write the report: " + oneLine(unwritable.getMessage()));
            }
        }
        if (options.verbose()) {
            ReportJson.Summary summary = ReportJson.Summary.of(transformer.report());
            messages.println(PREFIX + "rewrote " + summary.changedClasses() + " of " + count(summary.classes(), "class",
                    "classes") + " as they loaded (" + count(summary.rewrittenMethods(), "method", "methods") + ")");
        }
        messages.flush();
    }

    /**
     * The cache for this agent, JDK, options and class path, or null when the agent's code cannot be found or the
     * cache directory cannot be used (the agent then rewrites every class as it loads, as without the cache).
     *
     * @throws TransformException when a class path entry cannot be read
     */
    private static RewriteCache openCache(Path directory, String arguments, List<Path> classPath)
            throws TransformException {
        Path agentCode = agentLocation();
        if (agentCode == null) {
            return null;
        }
        String context;
        try {
            context = RewriteCache.context(agentCode, arguments, classPath);
        } catch (IOException unreadable) {
            throw new TransformException("cannot read the class path: " + unreadable.getMessage(), unreadable);
        }
        return RewriteCache.open(directory, context);
    }

    /** The text on one line, for a message that must fit on one. */
    static String oneLine(String text) {
        return text == null ? "" : text.replaceAll("\\R+", " ").strip();
    }

    /**
     * Sets the system property from which the runtime takes its number of carriers to the {@code carriers} option,
     * unless the command line set it already ({@code -Dpicothreads.carriers} wins).
     */
    private static void setCarriers(AgentOptions options) {
        if (options.carriers() != null && System.getProperty(AgentOptions.CARRIERS_PROPERTY) == null) {
            System.setProperty(AgentOptions.CARRIERS_PROPERTY, Integer.toString(options.carriers()));
        }
    }

    /**
     * True unless the class, by its internal name, belongs to the JDK or to PicoThreads itself (the runtime, the
     * transformer and the libraries relocated into it), which are never rewritten.
     */
    static boolean mayRewrite(String internalName) {
        return !(internalName.startsWith("java/") || internalName.startsWith("javax/")
                || internalName.startsWith("jdk/") || internalName.startsWith("sun/")
                || internalName.startsWith("com/sun/") || internalName.startsWith("org/picothreads/")
                || internalName.equals("module-info") || internalName.endsWith("package-info"));
    }

    private static String count(int number, String singular, String plural) {
        return number + " " + (number == 1 ? singular : plural);
    }

    /** The agent's jar (or classes directory), where the runtime's classes are, or null when unknown. */
    private static Path agentLocation() {
        CodeSource codeSource = PicoAgent.class.getProtectionDomain().getCodeSource();
        if (codeSource == null || codeSource.getLocation() == null) {
            return null;
        }
        try {
            Path location = Path.of(codeSource.getLocation().toURI()).toAbsolutePath().normalize();
            return Files.exists(location) ? location : null;
        } catch (URISyntaxException | IllegalArgumentException notAFile) {
            return null;
        }
    }
}
