package org.picothreads.maven;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.maven.artifact.Artifact;
import org.apache.maven.artifact.DependencyResolutionRequiredException;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * Rewrites the project's compiled test classes ({@code target/test-classes}) in place, so that the project's own
 * tests run on PicoThreads; bound to {@code process-test-classes}. The main classes, rewritten by the
 * {@code transform} goal, take part in the analysis and are not written.
 */
@Mojo(name = "transform-test", defaultPhase = LifecyclePhase.PROCESS_TEST_CLASSES,
        requiresDependencyResolution = ResolutionScope.TEST, threadSafe = true)
public final class TransformTestMojo extends AbstractTransformMojo {
    /**
     * Where to write the JSON report of what the rewrite did to each test class and method, the same report the
     * command line's {@code --report} writes. A build with nothing to rewrite leaves the last report as it was.
     */
    @Parameter(property = "pico.testReportFile",
            defaultValue = "${project.build.directory}/pico/transform-test-report.json")
    private File reportFile;

    /** Skips this goal alone, for example while {@code maven.test.skip} leaves no test classes. */
    @Parameter(property = "maven.test.skip", defaultValue = "false")
    private boolean skipTests;

    @Override
    Path classesDirectory() {
        return Path.of(project().getBuild().getTestOutputDirectory());
    }

    @Override
    List<String> classpathElements() throws MojoExecutionException {
        try {
            return project().getTestClasspathElements();
        } catch (DependencyResolutionRequiredException unresolved) {
            throw new MojoExecutionException("PicoThreads: the test classpath is not resolved", unresolved);
        }
    }

    @Override
    List<Path> analysedDirectories() {
        Path mainClasses = Path.of(project().getBuild().getOutputDirectory());
        return Files.isDirectory(mainClasses) ? List.of(mainClasses) : List.of();
    }

    @Override
    boolean rewritesScope(String scope) {
        return Artifact.SCOPE_TEST.equals(scope);
    }

    @Override
    File reportFile() {
        return reportFile;
    }

    @Override
    String stateFileName() {
        return "transform-test-state";
    }

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        if (skipTests) {
            getLog().info("PicoThreads: test classes skipped (maven.test.skip)");
            return;
        }
        super.execute();
    }
}
