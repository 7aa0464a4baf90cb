package org.picothreads.maven;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.picothreads.transform.io.ContainerException;
import org.picothreads.transform.io.StagedOutput;

/**
 * What the last successful run left in a classes directory, kept in a small text file under the build directory
 * so that the next run can tell whether anything is left to rewrite: a fingerprint of the options, a hash of each
 * dependency that was unpacked, and for each chosen class file the hashes of its bytes before and after the
 * rewrite, with the call sites in it that pin their thread and the synchronized regions in it that can suspend
 * holding the monitor of an object JDK code also locks.
 *
 * <pre>
 * options    FINGERPRINT
 * dependency GROUP:ARTIFACT  HASH
 * class      RELATIVE/PATH.class  INPUT-HASH  OUTPUT-HASH
 * pinned     RELATIVE/PATH.class  DESCRIPTION
 * shared     RELATIVE/PATH.class  DESCRIPTION
 * </pre>
 *
 * <p>Fields are separated by tabs; hashes are SHA-256 in hexadecimal. A missing or unreadable file is an empty
 * state, which makes the next run rewrite everything it finds.
 */
final class TransformState {
    private static final String HEADER = "# pico-maven-plugin: what the last run rewrote; delete this file to check every class again";

    /**
     * One class file as the last run left it.
     *
     * @param inputHash  the hash of the class file the run read
     * @param outputHash the hash of the class file the run left in the directory
     */
    record ClassRecord(String inputHash, String outputHash) {
    }

    private final String optionsFingerprint;
    private final Map<String, String> dependencyHashes;
    private final Map<String, ClassRecord> classes;
    private final Map<String, List<String>> pinnedCallSites;
    private final Map<String, List<String>> sharedMonitorRegions;

    TransformState(String optionsFingerprint, Map<String, String> dependencyHashes, Map<String, ClassRecord> classes,
            Map<String, List<String>> pinnedCallSites, Map<String, List<String>> sharedMonitorRegions) {
        this.optionsFingerprint = optionsFingerprint;
        this.dependencyHashes = new TreeMap<>(dependencyHashes);
        this.classes = new TreeMap<>(classes);
        this.pinnedCallSites = new TreeMap<>(pinnedCallSites);
        this.sharedMonitorRegions = new TreeMap<>(sharedMonitorRegions);
    }

    /** The state with nothing recorded. */
    static TransformState empty() {
        return new TransformState("", Map.of(), Map.of(), Map.of(), Map.of());
    }

    /** Reads the state file; a missing or malformed one gives the empty state. */
    static TransformState read(Path file) throws IOException {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException missing) {
            return empty();
        }
        String options = "";
        Map<String, String> dependencies = new TreeMap<>();
        Map<String, ClassRecord> classes = new TreeMap<>();
        Map<String, List<String>> pinned = new TreeMap<>();
        Map<String, List<String>> shared = new TreeMap<>();
        for (String line : lines) {
            String[] fields = line.split("\t");
            switch (fields[0]) {
                case "options" -> options = fields.length == 2 ? fields[1] : "";
                case "dependency" -> {
                    if (fields.length != 3) {
                        return empty();
                    }
                    dependencies.put(fields[1], fields[2]);
                }
                case "class" -> {
                    if (fields.length != 4) {
                        return empty();
                    }
                    classes.put(fields[1], new ClassRecord(fields[2], fields[3]));
                }
                case "pinned", "shared" -> {
                    if (fields.length != 3) {
                        return empty();
                    }
                    (fields[0].equals("pinned") ? pinned : shared)
                            .computeIfAbsent(fields[1], path -> new ArrayList<>()).add(fields[2]);
                }
                default -> {
                    if (!line.startsWith("#") && !line.isBlank()) {
                        return empty();
                    }
                }
            }
        }
        return new TransformState(options, dependencies, classes, pinned, shared);
    }

    /** Writes the state file, replacing the old one in one step. */
    void write(Path file) throws ContainerException {
        StringBuilder text = new StringBuilder(HEADER).append('\n');
        text.append("options\t").append(optionsFingerprint).append('\n');
        dependencyHashes.forEach((coordinate, hash) -> text.append("dependency\t").append(coordinate).append('\t')
                .append(hash).append('\n'));
        classes.forEach((path, record) -> text.append("class\t").append(path).append('\t')
                .append(record.inputHash()).append('\t').append(record.outputHash()).append('\n'));
        appendDescriptions(text, "pinned", pinnedCallSites);
        appendDescriptions(text, "shared", sharedMonitorRegions);
        try (StagedOutput staged = StagedOutput.ofFile(file, text.toString().getBytes(StandardCharsets.UTF_8))) {
            staged.commit();
        }
    }

    private static void appendDescriptions(StringBuilder text, String kind, Map<String, List<String>> byPath) {
        byPath.forEach((path, descriptions) -> descriptions.forEach(description -> text.append(kind).append('\t')
                .append(path).append('\t').append(description.replaceAll("[\\t\\r\\n]+", " ")).append('\n')));
    }

    String optionsFingerprint() {
        return optionsFingerprint;
    }

    /** The hash of the dependency's file when the last run unpacked it, or null. */
    String dependencyHash(String coordinate) {
        return dependencyHashes.get(coordinate);
    }

    /** Every dependency the last run had unpacked, with its hash. */
    Map<String, String> dependencyHashes() {
        return dependencyHashes;
    }

    /** The recorded class files, by path relative to the classes directory. */
    Map<String, ClassRecord> classes() {
        return classes;
    }

    /** The descriptions of the call sites that pin their thread in a recorded class file; empty when none. */
    List<String> pinnedCallSites(String path) {
        return pinnedCallSites.getOrDefault(path, List.of());
    }

    /**
     * The descriptions of the synchronized regions of a recorded class file that can suspend holding the monitor of
     * an object JDK code also locks; empty when none.
     */
    List<String> sharedMonitorRegions(String path) {
        return sharedMonitorRegions.getOrDefault(path, List.of());
    }

    /** The SHA-256 of the bytes, in hexadecimal. */
    static String hash(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException missing) {
            throw new IllegalStateException("every Java platform has SHA-256", missing);
        }
    }
}
