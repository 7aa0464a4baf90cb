package org.picothreads.maven;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.maven.artifact.Artifact;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugin.descriptor.PluginDescriptor;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;
import org.picothreads.transform.PicoTransformer;
import org.picothreads.transform.io.ClassNameFilter;

/**
 * The options the two goals share, and their one run: choose the classes, find the dependencies to rewrite, and
 * hand the rest to {@link ClassDirectoryTransformation}, which calls the transformer.
 */
public abstract class AbstractTransformMojo extends AbstractMojo {
    /**
     * Class name patterns of the classes to rewrite; all classes when empty. A pattern is a fully qualified class
     * name in which {@code *} stands for any characters, dots included, and {@code ?} for one:
     * {@code com.example.*} is every class in {@code com.example} and below, nested classes included.
     */
    @Parameter
    private List<String> includes;

    /**
     * Class name patterns, as for {@code includes}, of classes never to rewrite. An excluded class keeps running
     * its threads on platform threads, and a blocking call it makes from a PicoThread blocks in place.
     */
    @Parameter
    private List<String> excludes;

    /** Skips the goal; the classes are left as the compiler wrote them. */
    @Parameter(property = "pico.skip", defaultValue = "false")
    private boolean skip;

    /**
     * Fails the build when any rewritten class has a call site that would block in place, pinning its thread,
     * instead of suspending (a blocking call in a constructor or a class initializer, or one the transformer cannot
     * make suspendable, such as a call handing a JDK callback a lambda that blocks), or when a class uses sockets
     * and pico-net is not on the classpath, so that its socket calls would block the carrier thread. The failure
     * message lists each such call site (class, method, line, called method and reason) or names the socket user.
     * Nothing is written when the build fails this way.
     */
    @Parameter(property = "pico.failOnPinned", defaultValue = "false")
    private boolean failOnPinned;

    /**
     * Dependencies, as {@code groupId:artifactId}, whose classes are unpacked into the build output and rewritten
     * with the project's: for a library that starts and blocks on threads of its own. The {@code transform} goal
     * takes the listed dependencies of compile, provided, runtime and system scope into {@code target/classes};
     * {@code transform-test} takes those of test scope into {@code target/test-classes}. The rewritten copies come
     * before the jar on the class path, and they are packaged in the project's jar.
     */
    @Parameter
    private List<String> rewriteDependencies;

    /** The project being built. */
    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    private MavenProject project;

    /** This plugin, whose version is part of the incremental state. */
    @Parameter(defaultValue = "${plugin}", readonly = true, required = true)
    private PluginDescriptor plugin;

    /** The directory rewritten in place. */
    abstract Path classesDirectory();

    /** The jars and directories the classes refer to, for the class hierarchy. */
    abstract List<String> classpathElements() throws MojoExecutionException;

    /** Directories of classes the analysis reads but this goal never writes. */
    abstract List<Path> analysedDirectories();

    /** Whether a dependency of this scope is rewritten by this goal. */
    abstract boolean rewritesScope(String scope);

    /** The JSON report file, or null for none. */
    abstract File reportFile();

    /** The incremental state file's name under {@code target/pico}. */
    abstract String stateFileName();

    /** What the goal does besides rewriting classes, before it; nothing by default. */
    void beforeRewrite() throws MojoExecutionException {
    }

    MavenProject project() {
        return project;
    }

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        if (skip) {
            getLog().info("PicoThreads: skipped (pico.skip)");
            return;
        }
        if ("pom".equals(project.getPackaging())) {
            return;
        }
        ClassNameFilter filter;
        try {
            filter = ClassNameFilter.of(includes, excludes);
        } catch (IllegalArgumentException badPattern) {
            throw new MojoExecutionException("PicoThreads: includes and excludes: " + badPattern.getMessage(),
                    badPattern);
        }
        List<DependencyToRewrite> dependencies = dependenciesToRewrite();
        beforeRewrite();
        Path classesDirectory = classesDirectory();
        if (!Files.isDirectory(classesDirectory) && dependencies.isEmpty()) {
            getLog().info("PicoThreads: no classes in " + classesDirectory + ", nothing to rewrite");
            return;
        }
        warnWithoutRuntime();
        List<Path> classpath = new ArrayList<>();
        for (String element : classpathElements()) {
            Path entry = Path.of(element);
            if (!entry.equals(classesDirectory)) {
                classpath.add(entry);
            }
        }
        Path buildDirectory = Path.of(project.getBuild().getDirectory());
        File reportFile = reportFile();
        ClassDirectoryTransformation.Request request = new ClassDirectoryTransformation.Request(classesDirectory,
                classpath, analysedDirectories(), filter, dependencies, optionsFingerprint(filter, dependencies),
                buildDirectory.resolve("pico").resolve(stateFileName()),
                reportFile == null ? null : reportFile.toPath(), failOnPinned);
        new ClassDirectoryTransformation(request, getLog()).run();
    }

    /** The listed dependencies this goal rewrites, resolved to their files. */
    private List<DependencyToRewrite> dependenciesToRewrite() throws MojoExecutionException {
        List<DependencyToRewrite> dependencies = new ArrayList<>();
        if (rewriteDependencies == null) {
            return dependencies;
        }
        Set<Artifact> artifacts = project.getArtifacts();
        for (String coordinate : rewriteDependencies) {
            String wanted = coordinate.strip();
            Artifact found = artifacts.stream()
                    .filter(artifact -> (artifact.getGroupId() + ":" + artifact.getArtifactId()).equals(wanted))
                    .findFirst().orElse(null);
            if (found == null) {
                throw new MojoExecutionException("PicoThreads: rewriteDependencies names " + wanted
                        + ", which is not a dependency of " + project.getId() + " (give groupId:artifactId)");
            }
            if (!rewritesScope(found.getScope())) {
                continue;
            }
            if (found.getFile() == null || !found.getFile().exists()) {
                throw new MojoExecutionException("PicoThreads: the dependency " + wanted + " has no file to unpack");
            }
            dependencies.add(new DependencyToRewrite(wanted, found.getFile().toPath()));
        }
        return dependencies;
    }

    private void warnWithoutRuntime() {
        boolean hasRuntime = project.getArtifacts().stream().anyMatch(artifact ->
                artifact.getGroupId().equals("org.picothreads") && artifact.getArtifactId().equals("pico-runtime"));
        if (!hasRuntime) {
            getLog().warn("PicoThreads: " + project.getId() + " does not depend on org.picothreads:pico-runtime;"
                    + " the rewritten classes need it on the class path when they run");
        }
    }

    /**
     * Everything but the classes themselves that changes what the rewrite writes: the options, and the plugin's version
     * and code (a snapshot of the plugin rebuilt with another transformer keeps its version, and must rewrite every
     * class again rather than keep what the old transformer wrote).
     */
    private String optionsFingerprint(ClassNameFilter filter, List<DependencyToRewrite> dependencies)
            throws MojoExecutionException {
        String options = "plugin " + plugin.getVersion() + "\ncode " + codeFingerprint(List.of(
                codeLocation(PicoTransformer.class), codeLocation(AbstractTransformMojo.class))) + "\n" + filter
                + "\ndependencies " + dependencies.stream().map(DependencyToRewrite::coordinate).toList();
        return TransformState.hash(options.getBytes(StandardCharsets.UTF_8));
    }

    /** The jar or classes directory a class was loaded from. */
    private static Path codeLocation(Class<?> type) throws MojoExecutionException {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException | RuntimeException unknown) {
            throw new MojoExecutionException("PicoThreads: cannot tell where " + type.getName() + " was loaded from: "
                    + unknown.getMessage(), unknown);
        }
    }

    /** A hash of the contents of the given jars, or of every file under the given directories, in order. */
    static String codeFingerprint(List<Path> locations) throws MojoExecutionException {
        StringBuilder hashes = new StringBuilder();
        try {
            for (Path location : locations) {
                List<Path> files;
                try (var walk = Files.walk(location)) {
                    files = walk.filter(Files::isRegularFile).sorted().toList();
                }
                for (Path file : files) {
                    hashes.append(location.relativize(file)).append(' ')
                            .append(TransformState.hash(Files.readAllBytes(file))).append('\n');
                }
            }
        } catch (IOException unreadable) {
            throw new MojoExecutionException("PicoThreads: cannot read the plugin's own code: " + unreadable.getMessage(),
                    unreadable);
        }
        return TransformState.hash(hashes.toString().getBytes(StandardCharsets.UTF_8));
    }
}
