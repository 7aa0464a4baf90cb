package org.picothreads.transform.agent;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;
import org.picothreads.transform.ClassInput;
import org.picothreads.transform.ClassOutput;
import org.picothreads.transform.TransformException;
import org.picothreads.transform.TransformResult;
import org.picothreads.transform.io.ClassContainer;
import org.picothreads.transform.io.ClassNameFilter;
import org.picothreads.transform.io.ContainerEntry;
import org.picothreads.transform.io.ContainerException;
import org.picothreads.transform.io.StagedOutput;
import org.picothreads.transform.report.ReportJson;
import org.picothreads.transform.report.TransformReport;

/**
 * The classes of the application class path, rewritten together at startup, kept by internal class name until
 * they load; each remembers its original bytes, so that a class of the same name with other bytes (from another
 * class loader) is not given them.
 *
 * <p>Only the first class of a name on the class path is read, as the system class loader finds only that one.
 * When the transformer refuses a class, the class is taken out with one warning line and kept unchanged, and the
 * others are transformed again without it.
 */
final class PreparedClasses {
    /**
     * One class as read at startup.
     *
     * @param length    the length of its original class file
     * @param checksum  the CRC-32 of its original class file
     * @param original  the original class file when it was rewritten, to compare with exactly; null otherwise
     * @param rewritten the rewritten class file, or null when the class is loaded unchanged
     */
    record Prepared(int length, long checksum, byte[] original, byte[] rewritten) {
        /** True when {@code classFile} is the class file this entry was prepared from. */
        boolean isFrom(byte[] classFile) {
            if (original != null) {
                return Arrays.equals(original, classFile);
            }
            return classFile.length == length && checksumOf(classFile) == checksum;
        }
    }

    private final Map<String, Prepared> classes;
    private final TransformReport report;
    /** The binary name of a class read at startup that uses sockets without pico-net on the class path, or null. */
    private String socketUser;

    private PreparedClasses(Map<String, Prepared> classes, TransformReport report) {
        this.classes = Map.copyOf(classes);
        this.report = report;
    }

    /**
     * Reads the chosen classes of every class path entry and rewrites them in one call, leaving out, each with
     * one warning line, the classes the transformer refuses and the entries that cannot be read.
     */
    static PreparedClasses prepare(List<Path> classPath, ClassNameFilter filter, ClassRewriting rewriting,
            PrintStream warnings) {
        Map<String, ClassInput> inputsByName = new LinkedHashMap<>();
        for (Path entry : classPath) {
            readChosenClasses(entry, filter, inputsByName, warnings);
        }
        PreparedClasses done = rewrite(inputsByName, rewriting, warnings);
        try {
            done.socketUser = rewriting.socketUserWithoutPicoNet(List.copyOf(inputsByName.values()));
        } catch (TransformException unreadable) {
            warnings.println(PicoAgent.WARNING + "cannot tell whether pico-net is on the class path: "
                    + oneLine(unreadable.getMessage()));
        }
        return done;
    }

    private static PreparedClasses rewrite(Map<String, ClassInput> inputsByName, ClassRewriting rewriting,
            PrintStream warnings) {
        Map<String, Prepared> prepared = new HashMap<>();
        List<String> names = new ArrayList<>(inputsByName.keySet());
        while (!names.isEmpty()) {
            List<ClassInput> inputs = names.stream().map(inputsByName::get).toList();
            try {
                TransformResult result = rewriting.rewrite(inputs);
                for (int index = 0; index < names.size(); index++) {
                    prepared.put(names.get(index), prepared(inputs.get(index), result.classes().get(index)));
                }
                return new PreparedClasses(prepared, result.report());
            } catch (TransformException refused) {
                String refusedName = refusedClass(refused, names, inputsByName);
                if (refusedName == null) {
                    warnings.println(PicoAgent.WARNING + "cannot rewrite the class path's classes together, so each"
                            + " class is rewritten alone as it loads: " + oneLine(refused.getMessage()));
                    return new PreparedClasses(Map.of(), new TransformReport(List.of()));
                }
                warnings.println(PicoAgent.WARNING + "cannot rewrite " + refusedName.replace('/', '.')
                        + ", it is loaded unchanged: " + oneLine(refused.getMessage()));
                byte[] classFile = inputsByName.get(refusedName).bytes();
                prepared.put(refusedName, new Prepared(classFile.length, checksumOf(classFile), null, null));
                names.remove(refusedName);
            }
        }
        return new PreparedClasses(prepared, new TransformReport(List.of()));
    }

    private static void readChosenClasses(Path entry, ClassNameFilter filter, Map<String, ClassInput> inputsByName,
            PrintStream warnings) {
        ClassContainer container;
        try {
            container = ClassContainer.read(entry);
        } catch (ContainerException unreadable) {
            warnings.println(PicoAgent.WARNING + "cannot read class path entry " + entry
                    + ", its classes are rewritten as they load: " + oneLine(unreadable.getMessage()));
            return;
        }
        for (ContainerEntry file : container.entries()) {
            String name = file.name();
            if (!file.isClass() || name.startsWith("META-INF/")) {
                continue;
            }
            String internalName = name.substring(0, name.length() - ".class".length());
            if (PicoAgent.mayRewrite(internalName) && filter.accepts(internalName)) {
                inputsByName.putIfAbsent(internalName, new ClassInput(container.sourceOf(file), file.bytes()));
            }
        }
    }

    /** The internal name of the class whose source the transformer's message starts with, or null. */
    private static String refusedClass(TransformException refused, List<String> names,
            Map<String, ClassInput> inputsByName) {
        String message = refused.getMessage() == null ? "" : refused.getMessage();
        for (String name : names) {
            if (message.startsWith(inputsByName.get(name).source() + ":")) {
                return name;
            }
        }
        return null;
    }

    private static Prepared prepared(ClassInput input, ClassOutput output) {
        byte[] original = input.bytes();
        return output.changed()
                ? new Prepared(original.length, checksumOf(original), original, output.bytes())
                : new Prepared(original.length, checksumOf(original), null, null);
    }

    static long checksumOf(byte[] classFile) {
        CRC32 checksum = new CRC32();
        checksum.update(classFile);
        return checksum.getValue();
    }

    static String oneLine(String text) {
        return text == null ? "" : text.replaceAll("\\R+", " ").strip();
    }

    /** The class prepared under this internal name, or null when none was read at startup. */
    Prepared find(String internalName) {
        return classes.get(internalName);
    }

    /**
     * The binary name of a class read at startup that refers to a socket type while pico-net is not on the class
     * path, or null when none does.
     */
    String socketUser() {
        return socketUser;
    }

    /** The transformer's report of the startup rewrite. */
    TransformReport report() {
        return report;
    }

    /** Writes the report as the command line's {@code --report} does, replacing the file in one step. */
    void writeReport(Path file) throws ContainerException {
        byte[] json = ReportJson.toJson(report).getBytes(StandardCharsets.UTF_8);
        try (StagedOutput staged = StagedOutput.ofFile(file, json)) {
            staged.commit();
        }
    }
}
