package org.picothreads.maven;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugin.logging.Log;
import org.picothreads.transform.ClassInput;
import org.picothreads.transform.ClassOutput;
import org.picothreads.transform.PicoTransformer;
import org.picothreads.transform.TransformException;
import org.picothreads.transform.TransformResult;
import org.picothreads.transform.io.ClassContainer;
import org.picothreads.transform.io.ClassNameFilter;
import org.picothreads.transform.io.ContainerEntry;
import org.picothreads.transform.io.ContainerException;
import org.picothreads.transform.io.StagedOutput;
import org.picothreads.transform.report.ClassReport;
import org.picothreads.transform.report.MethodReport;
import org.picothreads.transform.report.PinnedCallSite;
import org.picothreads.transform.report.ReportJson;
import org.picothreads.transform.report.SharedMonitorRegion;
import org.picothreads.transform.report.TransformReport;

/**
 * Rewrites a classes directory in place, incrementally: what both goals of the plugin do once Maven has told them
 * the directory, the classpath and the options.
 *
 * <pre>
 * 1. unpack the classes of each dependency to rewrite whose file changed since the last run
 * 2. read the directory; the chosen classes are those the include and exclude patterns select
 * 3. warn when a chosen class uses sockets and pico-net is not on the classpath; fail, writing nothing,
 *    if failOnPinned is set
 * 4. when every chosen class is as the last run left it and the options are the same: nothing to do
 * 5. otherwise hand every chosen class to the transformer in one call, with the classes already rewritten
 *    elsewhere (the other classes of the directory, the analysed directories) for the analysis only
 * 6. fail, writing nothing, if failOnPinned is set and any chosen class has a call site that pins or a synchronized
 *    region that can suspend holding the monitor of an object JDK code also locks; warn of such regions otherwise
 * 7. write back each class that changed, each in one atomic step; then the report and the state
 * </pre>
 */
final class ClassDirectoryTransformation {
    /**
     * What to rewrite and how.
     *
     * @param classesDirectory    the directory rewritten in place
     * @param classpath           the jars and directories the classes refer to, for the class hierarchy
     * @param analysedDirectories directories whose rewritten classes the analysis reads but which are not written
     *                            (the main classes, for the test classes)
     * @param filter              which classes of the directory are rewritten
     * @param dependencies        the dependencies whose classes are unpacked into the directory first
     * @param optionsFingerprint  changes whenever an option that changes the output changes
     * @param stateFile           where the incremental state is kept
     * @param reportFile          where the JSON report goes, or null for none
     * @param failOnPinned        whether a call site that pins its thread, a synchronized region that can suspend
     *                            on an object JDK code also locks, or a class that uses sockets without pico-net on
     *                            the classpath, fails the run
     */
    record Request(Path classesDirectory, List<Path> classpath, List<Path> analysedDirectories, ClassNameFilter filter,
            List<DependencyToRewrite> dependencies, String optionsFingerprint, Path stateFile, Path reportFile,
            boolean failOnPinned) {
    }

    /**
     * What a run did.
     *
     * @param chosenClasses  the classes of the directory the filter chose
     * @param writtenClasses the class files written back
     * @param upToDate       true when nothing had to be done
     */
    record Outcome(int chosenClasses, int writtenClasses, boolean upToDate) {
    }

    /** The coordinates of the dependency that makes sockets suspend only their PicoThread. */
    static final String PICO_NET = "org.picothreads:pico-net";

    private final Request request;
    private final Log log;

    ClassDirectoryTransformation(Request request, Log log) {
        this.request = request;
        this.log = log;
    }

    Outcome run() throws MojoExecutionException, MojoFailureException {
        Path directory = request.classesDirectory();
        TransformState state = readState();
        Map<String, String> dependencyHashes = unpackChangedDependencies(state);
        boolean dependenciesUnpacked = !dependencyHashes.equals(state.dependencyHashes());

        ClassContainer container = read(directory);
        Map<String, ClassInput> chosen = new LinkedHashMap<>();
        List<ClassInput> analysedOnly = new ArrayList<>();
        StringBuilder fingerprint = new StringBuilder(request.optionsFingerprint());
        for (ContainerEntry entry : container.entries()) {
            if (!entry.isClass()) {
                continue;
            }
            ClassInput input = new ClassInput(container.sourceOf(entry), entry.bytes());
            if (request.filter().acceptsClassFile(entry.name())) {
                chosen.put(entry.name(), input);
            } else if (PicoTransformer.isTransformed(entry.bytes())) {
                analysedOnly.add(input);
                fingerprint.append('\n').append(entry.name()).append(' ').append(TransformState.hash(entry.bytes()));
            }
        }
        for (Path analysed : request.analysedDirectories()) {
            ClassContainer analysedContainer = read(analysed);
            for (ContainerEntry entry : analysedContainer.entries()) {
                if (entry.isClass() && PicoTransformer.isTransformed(entry.bytes())) {
                    analysedOnly.add(new ClassInput(analysedContainer.sourceOf(entry), entry.bytes()));
                    fingerprint.append('\n').append(analysed).append('!').append(entry.name()).append(' ')
                            .append(TransformState.hash(entry.bytes()));
                }
            }
        }
        String optionsFingerprint = TransformState.hash(fingerprint.toString().getBytes(StandardCharsets.UTF_8));
        refuseStaleRewrites(state, optionsFingerprint, chosen);
        PicoTransformer transformer = transformer();
        checkSocketUse(transformer, new ArrayList<>(chosen.values()));

        Map<String, String> currentHashes = new TreeMap<>();
        chosen.forEach((path, input) -> currentHashes.put(path, TransformState.hash(input.bytes())));
        if (!dependenciesUnpacked && isUpToDate(state, optionsFingerprint, currentHashes)) {
            List<String> pinned = new ArrayList<>();
            List<String> shared = new ArrayList<>();
            currentHashes.keySet().forEach(path -> {
                pinned.addAll(state.pinnedCallSites(path));
                shared.addAll(state.sharedMonitorRegions(path));
            });
            failOrWarn(pinned, shared);
            log.info("PicoThreads: nothing to rewrite, " + count(chosen.size(), "class", "classes") + " up to date in "
                    + directory);
            return new Outcome(chosen.size(), 0, true);
        }

        List<ClassInput> inputs = new ArrayList<>(chosen.values());
        inputs.addAll(analysedOnly);
        TransformResult result = transform(transformer, inputs);
        List<String> paths = new ArrayList<>(chosen.keySet());
        Map<String, List<String>> pinnedByPath = new HashMap<>();
        Map<String, List<String>> sharedByPath = new HashMap<>();
        List<ClassReport> chosenReports = new ArrayList<>();
        int alreadyRewritten = 0;
        for (int index = 0; index < paths.size(); index++) {
            String path = paths.get(index);
            ClassReport report = result.report().classes().get(index);
            chosenReports.add(report);
            if (report.alreadyTransformed()) {
                alreadyRewritten++;
                TransformState.ClassRecord recorded = state.classes().get(path);
                if (recorded != null && recorded.outputHash().equals(currentHashes.get(path))) {
                    pinnedByPath.put(path, state.pinnedCallSites(path));
                    sharedByPath.put(path, state.sharedMonitorRegions(path));
                }
            } else {
                pinnedByPath.put(path, pinnedCallSites(report));
                sharedByPath.put(path, sharedMonitorRegions(report));
                if (report.leftUnrewritten() != null) {
                    log.warn("PicoThreads: " + report.className().replace('/', '.') + ": " + report.leftUnrewritten());
                }
            }
        }
        List<String> pinned = new ArrayList<>();
        List<String> shared = new ArrayList<>();
        paths.forEach(path -> {
            pinned.addAll(pinnedByPath.getOrDefault(path, List.of()));
            shared.addAll(sharedByPath.getOrDefault(path, List.of()));
        });
        failOrWarn(pinned, shared);

        int written = 0;
        Map<String, TransformState.ClassRecord> records = new TreeMap<>();
        for (int index = 0; index < paths.size(); index++) {
            String path = paths.get(index);
            ClassOutput output = result.classes().get(index);
            if (output.changed()) {
                writeAtomically(directory.resolve(path), output.bytes());
                written++;
            }
            String inputHash = currentHashes.get(path);
            records.put(path, new TransformState.ClassRecord(inputHash,
                    output.changed() ? TransformState.hash(output.bytes()) : inputHash));
        }
        TransformReport report = new TransformReport(chosenReports, result.report().blockingChains());
        if (request.reportFile() != null) {
            writeAtomically(request.reportFile(), ReportJson.toJson(report).getBytes(StandardCharsets.UTF_8));
        }
        try {
            new TransformState(optionsFingerprint, dependencyHashes, records, pinnedByPath, sharedByPath).write(request.stateFile());
        } catch (ContainerException unwritable) {
            throw new MojoExecutionException("PicoThreads: " + unwritable.getMessage(), unwritable);
        }
        logSummary(report, chosen.size(), alreadyRewritten, pinned.size());
        return new Outcome(chosen.size(), written, false);
    }

    private TransformState readState() throws MojoExecutionException {
        try {
            return TransformState.read(request.stateFile());
        } catch (IOException unreadable) {
            log.warn("PicoThreads: cannot read " + request.stateFile() + " (" + unreadable.getMessage()
                    + "), so every class is checked again");
            return TransformState.empty();
        }
    }

    /**
     * Fails when the options or the plugin's code changed since the last run, while classes that run rewrote in place
     * are still there as it left them: their compiled originals are gone, and a class already rewritten is never
     * rewritten again, so the directory would silently keep the old rewrite (with a runtime protocol the new runtime
     * may not follow). Nothing is written; recompiling the classes ({@code mvn clean}) gives the rewrite its inputs.
     */
    private void refuseStaleRewrites(TransformState state, String optionsFingerprint, Map<String, ClassInput> chosen)
            throws MojoFailureException {
        if (state.optionsFingerprint().equals(optionsFingerprint)) {
            return;
        }
        List<String> stale = new ArrayList<>();
        chosen.forEach((path, input) -> {
            TransformState.ClassRecord record = state.classes().get(path);
            if (record != null && !record.inputHash().equals(record.outputHash())
                    && record.outputHash().equals(TransformState.hash(input.bytes()))) {
                stale.add(path);
            }
        });
        if (!stale.isEmpty()) {
            throw new MojoFailureException("PicoThreads: " + count(stale.size(), "class", "classes") + " in "
                    + request.classesDirectory() + " (" + stale.get(0) + (stale.size() > 1 ? ", ..." : "")
                    + ") were rewritten in place by a run with other options or another build of the plugin, and"
                    + " cannot be rewritten again; rebuild them from their sources (mvn clean)");
        }
    }

    private static boolean isUpToDate(TransformState state, String optionsFingerprint,
            Map<String, String> currentHashes) {
        if (!state.optionsFingerprint().equals(optionsFingerprint)
                || !state.classes().keySet().equals(currentHashes.keySet())) {
            return false;
        }
        return currentHashes.entrySet().stream().allMatch(current ->
                state.classes().get(current.getKey()).outputHash().equals(current.getValue()));
    }

    /**
     * Unpacks the class files of each dependency whose file is not the one the last run unpacked, and returns the
     * hash of every dependency's file.
     */
    private Map<String, String> unpackChangedDependencies(TransformState state) throws MojoExecutionException {
        Map<String, String> hashes = new TreeMap<>();
        for (DependencyToRewrite dependency : request.dependencies()) {
            ClassContainer container = read(dependency.file());
            StringBuilder content = new StringBuilder();
            List<ContainerEntry> classFiles = new ArrayList<>();
            for (ContainerEntry entry : container.entries()) {
                if (entry.isClass() && !entry.name().startsWith("META-INF/")) {
                    classFiles.add(entry);
                    content.append(entry.name()).append(' ').append(TransformState.hash(entry.bytes())).append('\n');
                }
            }
            String hash = TransformState.hash(content.toString().getBytes(StandardCharsets.UTF_8));
            hashes.put(dependency.coordinate(), hash);
            if (hash.equals(state.dependencyHash(dependency.coordinate()))) {
                continue;
            }
            for (ContainerEntry entry : classFiles) {
                writeAtomically(request.classesDirectory().resolve(entry.name()), entry.bytes());
            }
            log.info("PicoThreads: unpacked " + count(classFiles.size(), "class", "classes") + " of "
                    + dependency.coordinate() + " into " + request.classesDirectory());
        }
        return hashes;
    }

    /** The transformer, reading the class hierarchy from the classes directory and then the classpath. */
    private PicoTransformer transformer() throws MojoFailureException {
        List<Path> classpath = new ArrayList<>();
        classpath.add(request.classesDirectory());
        for (Path entry : request.classpath()) {
            if (Files.exists(entry) && !classpath.contains(entry)) {
                classpath.add(entry);
            }
        }
        try {
            return PicoTransformer.withClasspath(classpath);
        } catch (TransformException refused) {
            throw new MojoFailureException("PicoThreads: " + refused.getMessage(), refused);
        }
    }

    /**
     * Warns, or with failOnPinned fails the run before anything is written, when a chosen class uses sockets and
     * pico-net is not on the classpath: its socket calls would block the carrier thread and every PicoThread.
     */
    private void checkSocketUse(PicoTransformer transformer, List<ClassInput> chosen) throws MojoFailureException {
        String socketUser;
        try {
            socketUser = transformer.socketUserWithoutPicoNet(chosen);
        } catch (TransformException unreadable) {
            throw new MojoFailureException("PicoThreads: " + unreadable.getMessage(), unreadable);
        }
        if (socketUser == null) {
            return;
        }
        String message = "PicoThreads: " + socketUser + " uses sockets, but pico-net is not on the classpath: its"
                + " socket calls block the carrier thread, and every PicoThread waits with them; add the dependency "
                + PICO_NET;
        if (request.failOnPinned()) {
            throw new MojoFailureException(message + " (failOnPinned is set)");
        }
        log.warn(message);
    }

    private TransformResult transform(PicoTransformer transformer, List<ClassInput> inputs)
            throws MojoExecutionException, MojoFailureException {
        try {
            return transformer.transform(inputs);
        } catch (TransformException refused) {
            throw new MojoFailureException("PicoThreads: " + refused.getMessage(), refused);
        } catch (RuntimeException failure) {
            throw new MojoExecutionException("PicoThreads: internal error while rewriting "
                    + request.classesDirectory() + ": " + failure, failure);
        }
    }

    /** Describes each call site of a class that pins its thread: class, method, line, target and reason. */
    private static List<String> pinnedCallSites(ClassReport report) {
        List<String> sites = new ArrayList<>();
        for (MethodReport method : report.methods()) {
            for (PinnedCallSite site : method.pinnedCallSites()) {
                sites.add(report.className().replace('/', '.') + "." + method.name() + method.descriptor()
                        + (site.line() < 0 ? " (line unknown)" : " line " + site.line()) + ": calls "
                        + site.target() + ": " + site.reason());
            }
        }
        return sites;
    }

    /**
     * Describes each synchronized region of a class that can suspend holding the monitor of an object JDK code also
     * locks: class, method, line and the object.
     */
    private static List<String> sharedMonitorRegions(ClassReport report) {
        List<String> regions = new ArrayList<>();
        for (MethodReport method : report.methods()) {
            for (SharedMonitorRegion region : method.sharedMonitorRegions()) {
                regions.add(report.className().replace('/', '.') + "." + method.name() + method.descriptor()
                        + (region.line() < 0 ? " (line unknown)" : " line " + region.line()) + ": synchronized on "
                        + region.monitor());
            }
        }
        return regions;
    }

    /**
     * Fails the run, before anything is written, when failOnPinned is set and a call site pins or a region can suspend
     * on an object JDK code also locks; otherwise warns of such regions, naming each, on every build (the pinned
     * call sites are counted in the summary).
     */
    private void failOrWarn(List<String> pinned, List<String> shared) throws MojoFailureException {
        StringBuilder message = new StringBuilder();
        if (request.failOnPinned() && !pinned.isEmpty()) {
            message.append(count(pinned.size(), "call site blocks", "call sites block"))
                    .append(" in place, pinning its thread, instead of suspending (failOnPinned is set):");
            pinned.forEach(site -> message.append("\n  ").append(site));
        }
        if (!shared.isEmpty()) {
            message.append(message.isEmpty() ? "" : "\n")
                    .append(count(shared.size(), "synchronized region", "synchronized regions"))
                    .append(" can suspend holding the monitor of an object that JDK code also locks; the JDK's own")
                    .append(" synchronized methods on it do not wait for a suspended holder")
                    .append(request.failOnPinned() ? " (failOnPinned is set):" : ":");
            shared.forEach(region -> message.append("\n  ").append(region));
        }
        if (message.isEmpty()) {
            return;
        }
        if (request.failOnPinned()) {
            throw new MojoFailureException("PicoThreads: " + message);
        }
        log.warn("PicoThreads: " + message);
    }

    private void logSummary(TransformReport report, int chosen, int alreadyRewritten, int pinned) {
        ReportJson.Summary summary = ReportJson.Summary.of(report);
        log.info("PicoThreads: rewrote " + summary.changedClasses() + " of " + count(chosen, "class", "classes") + " ("
                + count(summary.rewrittenMethods(), "method", "methods") + ") in " + request.classesDirectory()
                + (alreadyRewritten > 0 ? "; " + alreadyRewritten + " were rewritten by an earlier build" : ""));
        if (pinned > 0 && !request.failOnPinned()) {
            log.info("PicoThreads: " + count(pinned, "call site blocks", "call sites block") + " in place instead of"
                    + " suspending (pinned); " + (request.reportFile() == null ? "set reportFile to list them"
                    : "the report " + request.reportFile() + " lists them"));
        }
    }

    private static ClassContainer read(Path directoryOrJar) throws MojoExecutionException {
        try {
            return ClassContainer.read(directoryOrJar);
        } catch (ContainerException unreadable) {
            throw new MojoExecutionException("PicoThreads: " + unreadable.getMessage(), unreadable);
        }
    }

    private static void writeAtomically(Path file, byte[] bytes) throws MojoExecutionException {
        try (StagedOutput staged = StagedOutput.ofFile(file, bytes)) {
            staged.commit();
        } catch (ContainerException unwritable) {
            throw new MojoExecutionException("PicoThreads: " + unwritable.getMessage(), unwritable);
        }
    }

    static String count(int number, String singular, String plural) {
        return number + " " + (number == 1 ? singular : plural);
    }
}
