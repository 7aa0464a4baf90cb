package org.picothreads.transform.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Callable;
import org.picothreads.transform.ClassInput;
import org.picothreads.transform.PicoTransformer;
import org.picothreads.transform.TransformException;
import org.picothreads.transform.TransformResult;
import org.picothreads.transform.io.ClassContainer;
import org.picothreads.transform.io.ContainerException;
import org.picothreads.transform.io.ContainerKind;
import org.picothreads.transform.io.ContainerPaths;
import org.picothreads.transform.io.StagedOutput;
import org.picothreads.transform.report.ReportJson;
import org.picothreads.transform.report.TransformReport;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * The {@code pico-transform} command: reads a directory or jar of classes, hands every class to
 * {@link PicoTransformer} at once, and writes the result and, if asked, a JSON report, all or nothing.
 */
@Command(name = "pico-transform", mixinStandardHelpOptions = true, versionProvider = TransformCommand.Version.class,
        sortOptions = false, usageHelpAutoWidth = true,
        description = {"Rewrites compiled classes so that the threads they start are PicoThreads.",
            "INPUT and OUTPUT are each a directory of class files or a jar. Resources, module-info.class and the "
                    + "manifest are copied unchanged. OUTPUT is written only when the whole run succeeds."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the output was written",
            "1:the input cannot be transformed, or the output cannot be written or would lose files; nothing "
                    + "was written",
            "2:the command line is wrong",
            "3:--strict is given and a call site would pin, a method would be left as it was, or the input holds "
                    + "no class; nothing was written"})
public final class TransformCommand implements Callable<Integer> {
    static final int SUCCESS = 0;
    static final int FAILURE = 1;
    static final int USAGE_ERROR = 2;
    static final int STRICT_FAILURE = 3;
    /** How many pinned call sites and methods left as they were the console names; the report lists them all. */
    static final int NAMED_ON_CONSOLE = 5;
    static final String ERROR = "pico-transform: error: ";
    static final String WARNING = "pico-transform: warning: ";

    @Parameters(index = "0", paramLabel = "INPUT", description = "The classes to transform: a directory or a jar.")
    private Path input;

    @Parameters(index = "1", paramLabel = "OUTPUT",
            description = "Where to write them: a jar when a file is there or the name ends in .jar or .zip, "
                    + "otherwise a directory. An existing jar is replaced; an existing directory is merged into.")
    private Path output;

    @Option(names = "--classpath", paramLabel = "PATH", split = "${sys:path.separator}",
            description = "The jars and directories of the classes the input refers to, separated by "
                    + "'${sys:path.separator}' as for javac. May be repeated.")
    private List<Path> classpath = new ArrayList<>();

    @Option(names = "--report", paramLabel = "FILE",
            description = "Write what was done to each class and method to FILE, as JSON.")
    private Path report;

    @Option(names = "--strict",
            description = "Fail, writing nothing, when a call site would block in place (pinned) instead of "
                    + "suspending, a method would be left as it was, or INPUT holds no class.")
    private boolean strict;

    @Option(names = "--why", paramLabel = "METHOD",
            description = "Print, for the method METHOD (com.example.Owner.method, every overload, or "
                    + "com.example.Owner.method(descriptor)), each call at which it can suspend with the shortest "
                    + "chain of calls from there to a blocking primitive, and each call site that blocks in place "
                    + "with why.")
    private String why;

    @Option(names = {"-v", "--verbose"}, description = "Print the stack trace of an error.")
    private boolean verbose;

    @Spec
    private CommandSpec spec;

    /** True when the command is its process's whole program (run by {@link #main}), not a call in a larger one. */
    private boolean ownProcess;

    public static void main(String[] args) {
        TransformCommand command = new TransformCommand();
        command.ownProcess = true;
        System.exit(commandLine(command).execute(args));
    }

    /** The command ready to execute, reporting a wrong command line on one line of standard error. */
    public static CommandLine commandLine() {
        return commandLine(new TransformCommand());
    }

    private static CommandLine commandLine(TransformCommand command) {
        return new CommandLine(command).setParameterExceptionHandler(TransformCommand::usageError);
    }

    private static int usageError(ParameterException failure, String[] args) {
        failure.getCommandLine().getErr().println(ERROR + failure.getMessage() + " (see --help)");
        return USAGE_ERROR;
    }

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        try {
            String summary = transform(err);
            spec.commandLine().getOut().println(summary);
            return SUCCESS;
        } catch (StrictFailure failure) {
            failure.lines().forEach(line -> err.println(line));
            err.flush();
            return STRICT_FAILURE;
        } catch (ContainerException | TransformException | RefusedException failure) {
            String message = failure.getMessage() == null ? "cannot transform " + input : failure.getMessage();
            printError(err, message, failure);
        } catch (RuntimeException failure) {
            printError(err, "internal error while transforming " + input + ": " + failure
                    + (verbose ? "" : " (run with --verbose for the stack trace)"), failure);
        }
        return FAILURE;
    }

    /** Runs the whole transformation and returns the line that sums it up. */
    private String transform(PrintWriter err)
            throws ContainerException, TransformException, RefusedException, StrictFailure {
        List<Path> classpathEntries = checkArguments();
        ClassContainer container = ClassContainer.read(input);
        List<ClassInput> classes = container.classInputs();
        if (ownProcess && classes.size() >= ShortRunCompilation.SMALLEST_INPUT) {
            ShortRunCompilation.apply();
        }
        // The command's output runs with pico-runtime and pico-net (docs/cli.md), so sockets are always redirected.
        PicoTransformer transformer = PicoTransformer.withClasspath(classpathEntries).withPicoNetAtRunTime();
        // An input of resources only is copied without asking the transformer.
        TransformResult result = classes.isEmpty()
                ? new TransformResult(List.of(), new TransformReport(List.of()))
                : transformer.transform(classes);
        ClassContainer rewritten = container.withTransformedClasses(result.classes());
        OutputSafety.checkContents(rewritten, output);
        List<String> notes = RunNotes.of(result.report(), classes.isEmpty(), input, report);
        if (strict && !notes.isEmpty()) {
            throw new StrictFailure(RunNotes.asStrictFailure(notes));
        }
        List<String> signatureFiles = container.signatureFiles();
        if (rewritten.signatureFiles().size() < signatureFiles.size()) {
            err.println(WARNING + "dropped the signature files of " + input + " (" + String.join(", ", signatureFiles)
                    + "): the rewritten classes no longer match the signature");
        }

        try (StagedOutput stagedOutput = StagedOutput.ofContainer(rewritten, output);
                StagedOutput stagedReport = report == null ? null : StagedOutput.ofFile(report,
                        ReportJson.toJson(result.report()).getBytes(StandardCharsets.UTF_8))) {
            stagedOutput.commit();
            if (stagedReport != null) {
                stagedReport.commit();
            }
        }
        notes.forEach(line -> err.println(line));
        if (why != null) {
            WhyLines.of(result.report(), why).forEach(line -> spec.commandLine().getOut().println(line));
        }
        ReportJson.Summary summary = ReportJson.Summary.of(result.report());
        return "rewrote " + summary.changedClasses() + " of " + count(summary.classes(), "class", "classes")
                + " (" + count(summary.rewrittenMethods(), "method", "methods") + ") into " + output;
    }

    /**
     * Refuses, before anything is read, paths that cannot work: an input or output of the wrong kind, an
     * output that overlaps the input, a missing classpath entry, an unusable report path. Returns the
     * classpath entries.
     */
    private List<Path> checkArguments() throws ContainerException, RefusedException {
        ContainerKind.ofInput(input);
        ContainerKind.ofOutput(output);
        ContainerPaths.requireSeparate(input, output);
        List<Path> classpathEntries = checkedClasspath();
        OutputSafety.checkPaths(output, classpathEntries);
        checkReportPath();
        return classpathEntries;
    }

    private List<Path> checkedClasspath() throws RefusedException {
        List<Path> entries = new ArrayList<>();
        for (Path entry : classpath) {
            if (entry.toString().isEmpty()) {
                continue;
            }
            if (!Files.exists(entry)) {
                throw new RefusedException("classpath entry does not exist: " + entry);
            }
            entries.add(entry);
        }
        return entries;
    }

    private void checkReportPath() throws RefusedException, ContainerException {
        if (report == null) {
            return;
        }
        if (Files.isDirectory(report)) {
            throw new RefusedException("report file is a directory: " + report);
        }
        if (ContainerPaths.sameFile(report, input) || ContainerPaths.sameFile(report, output)) {
            throw new RefusedException("report file " + report + " is the input or the output");
        }
        OutputSafety.checkReport(report);
    }

    /** The number with the singular or plural noun that follows it. */
    static String count(int number, String singular, String plural) {
        return number + " " + (number == 1 ? singular : plural);
    }

    private void printError(PrintWriter err, String message, Exception failure) {
        err.println(ERROR + message.replaceAll("\\R+", " ").strip());
        if (verbose) {
            failure.printStackTrace(err);
        }
        err.flush();
    }

    /** A run that {@code --strict} stops, with the lines that say why. */
    private static final class StrictFailure extends Exception {
        private static final long serialVersionUID = 1L;
        private final transient List<String> lines;

        StrictFailure(List<String> lines) {
            super(lines.get(0));
            this.lines = lines;
        }

        List<String> lines() {
            return lines;
        }
    }

    /** The version from the Maven descriptor that the build puts in the jar. */
    static final class Version implements IVersionProvider {
        private static final String POM_PROPERTIES = "/META-INF/maven/org.picothreads/pico-transform/pom.properties";

        @Override
        public String[] getVersion() throws IOException {
            Properties properties = new Properties();
            try (InputStream in = TransformCommand.class.getResourceAsStream(POM_PROPERTIES)) {
                if (in != null) {
                    properties.load(in);
                }
            }
            return new String[] {"pico-transform " + properties.getProperty("version", "(development build)")};
        }
    }
}
