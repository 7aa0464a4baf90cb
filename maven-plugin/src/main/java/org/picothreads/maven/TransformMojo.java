package org.picothreads.maven;

import java.io.File;
import java.nio.file.Path;
import java.util.List;
import org.apache.maven.artifact.Artifact;
import org.apache.maven.artifact.DependencyResolutionRequiredException;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * Rewrites the project's compiled classes ({@code target/classes}) in place so that the threads they start are
 * PicoThreads; bound to {@code process-classes}. A second build with nothing changed rewrites nothing.
 */
@Mojo(name = "transform", defaultPhase = LifecyclePhase.PROCESS_CLASSES,
        requiresDependencyResolution = ResolutionScope.COMPILE_PLUS_RUNTIME, threadSafe = true)
public final class TransformMojo extends AbstractTransformMojo {
    /**
     * Where to write the JSON report of what the rewrite did to each class and method, the same report the command
     * line's {@code --report} writes. A build with nothing to rewrite leaves the last report as it was.
     */
    @Parameter(property = "pico.reportFile", defaultValue = "${project.build.directory}/pico/transform-report.json")
    private File reportFile;

    /**
     * The program's default scheduling policy: {@code fifo}, {@code lifo} or {@code random}. When set, it is written
     * to {@code META-INF/picothreads.properties} in the build output, where the runtime reads it at startup; the
     * system property {@code -Dpicothreads.scheduler} still overrides it. Unset, the runtime's default (FIFO) holds.
     */
    @Parameter(property = "pico.scheduler")
    private String scheduler;

    /** The RANDOM policy's seed, written with {@code scheduler}; {@code -Dpicothreads.seed} overrides it. */
    @Parameter(property = "pico.seed")
    private Long seed;

    /**
     * The program's default number of carriers, the threads that run PicoThreads, from 1 to 32767. When set, it is
     * written to {@code META-INF/picothreads.properties} in the build output, with or without {@code scheduler}; the
     * system property {@code -Dpicothreads.carriers} still overrides it. Unset, the runtime's default (one per
     * available processor) holds.
     */
    @Parameter(property = "pico.carriers")
    private Integer carriers;

    @Override
    Path classesDirectory() {
        return Path.of(project().getBuild().getOutputDirectory());
    }

    @Override
    List<String> classpathElements() throws MojoExecutionException {
        try {
            return project().getCompileClasspathElements();
        } catch (DependencyResolutionRequiredException unresolved) {
            throw new MojoExecutionException("PicoThreads: the compile classpath is not resolved", unresolved);
        }
    }

    @Override
    List<Path> analysedDirectories() {
        return List.of();
    }

    @Override
    boolean rewritesScope(String scope) {
        return !Artifact.SCOPE_TEST.equals(scope);
    }

    @Override
    File reportFile() {
        return reportFile;
    }

    @Override
    String stateFileName() {
        return "transform-state";
    }

    @Override
    void beforeRewrite() throws MojoExecutionException {
        boolean policySet = scheduler != null && !scheduler.isBlank();
        if (!policySet && seed != null) {
            getLog().warn("PicoThreads: seed is set but scheduler is not, so no seed is written");
        }
        if (!policySet && carriers == null) {
            return;
        }
        if (SchedulerDefaults.write(classesDirectory(), policySet ? scheduler : null, policySet ? seed : null,
                carriers)) {
            String written = (policySet ? "scheduler " + scheduler.strip() : "")
                    + (policySet && carriers != null ? ", " : "") + (carriers != null ? "carriers " + carriers : "");
            getLog().info("PicoThreads: wrote the scheduling defaults (" + written + ") to "
                    + classesDirectory().resolve(SchedulerDefaults.RESOURCE));
        }
    }
}
