package org.picothreads.piranha;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the synthetic web's server and each crawl in a JVM of its own, so that every mode meets the same conditions:
 * a fresh JVM started with the same java and the same options, a warm-up crawl of its own, and a web server that
 * shares nothing with the crawler but the machine. The JVMs it starts end with the JVM that started them.
 */
final class SeparateJvms {

    private static final String MAIN_CLASS = PiranhaCommand.class.getName();

    /** The java executable of this JVM, which the others run too. */
    private final String javaCommand;
    private final String classPath;
    /** Options given to every crawler JVM; {@code {mode}} in one is replaced by the mode's name. */
    private final List<String> jvmOptions;
    private final PrintStream log;

    SeparateJvms(List<String> jvmOptions, PrintStream log) {
        this.javaCommand = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        this.classPath = System.getProperty("java.class.path");
        this.jvmOptions = List.copyOf(jvmOptions);
        this.log = log;
    }

    /** A web server running in its own JVM. */
    static final class WebProcess implements AutoCloseable {

        private final Process process;
        private final String rootUrl;
        private final WebSpec spec;

        private WebProcess(Process process, String rootUrl, WebSpec spec) {
            this.process = process;
            this.rootUrl = rootUrl;
            this.spec = spec;
        }

        String rootUrl() {
            return rootUrl;
        }

        WebSpec spec() {
            return spec;
        }

        long pid() {
            return process.pid();
        }

        @Override
        public void close() throws InterruptedException {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        }
    }

    /** Starts a JVM serving the web and waits for its root URL. */
    WebProcess serve(WebSpec spec) throws IOException {
        List<String> command = new ArrayList<>(List.of(javaCommand, "-cp", classPath, MAIN_CLASS,
                "--exit-with-parent"));
        command.addAll(spec.serveArguments());
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        BufferedReader output = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8));
        String rootUrl = output.readLine();
        if (rootUrl == null || !rootUrl.startsWith("http://127.0.0.1:")) {
            process.destroyForcibly();
            throw new IOException("the web server's JVM did not start (it printed " + rootUrl + ")");
        }
        log.println("piranha: web server in JVM " + process.pid() + ": " + spec.describe() + ", root " + rootUrl);
        return new WebProcess(process, rootUrl, spec);
    }

    /**
     * Crawls from the root URL in the mode, in a new JVM, and returns its figures.
     *
     * @param crawlArguments options of {@code piranha --mode} for the crawl (limits, time, warm-up, the server)
     */
    ModeResult crawl(Mode mode, String rootUrl, List<String> crawlArguments, long timeoutSeconds)
            throws IOException, InterruptedException {
        Path resultFile = Files.createTempFile("piranha-" + mode.label(), ".properties");
        try {
            List<String> command = new ArrayList<>();
            command.add(javaCommand);
            jvmOptions.forEach(option -> command.add(option.replace("{mode}", mode.label())));
            command.addAll(List.of("-cp", classPath, MAIN_CLASS, "--exit-with-parent", "--mode", mode.label(),
                    "--result", resultFile.toString()));
            command.addAll(crawlArguments);
            command.add(rootUrl);
            Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
                throw new IOException("the " + mode.label() + " crawl's JVM did not end within " + timeoutSeconds
                        + " s");
            }
            if (process.exitValue() != 0) {
                throw new IOException("the " + mode.label() + " crawl's JVM failed with exit code "
                        + process.exitValue());
            }
            try (Reader reader = Files.newBufferedReader(resultFile, StandardCharsets.UTF_8)) {
                return Reports.readProperties(reader);
            }
        } finally {
            Files.deleteIfExists(resultFile);
        }
    }
}
