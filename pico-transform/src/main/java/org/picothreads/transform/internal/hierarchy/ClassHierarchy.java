package org.picothreads.transform.internal.hierarchy;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.ClassNode;
import org.picothreads.transform.internal.RuntimeNames;
import org.picothreads.transform.internal.Redirects;

/**
 * Answers questions about the class hierarchy (superclass, interfaces, declared methods, assignability)
 * by reading class files: first the classes being transformed, then the user's classpath, then the
 * running JDK's own class files. Nothing is ever loaded into the transformer's JVM.
 *
 * <p>The classes being transformed are registered with their hierarchy as it will be after the rewrite
 * (a subclass of java.lang.Thread extends PicoThread), and the runtime's replacement types (PicoThread
 * and the others in {@link Redirects}) are known without the runtime being on the classpath.
 */
public final class ClassHierarchy implements AutoCloseable {
    /**
     * The header of one class: enough to walk the hierarchy and resolve methods; for a class an earlier run rewrote,
     * the methods its {@code Rewritten} marker lists as able to capture ({@code name+descriptor}), otherwise none.
     */
    public record ClassInfo(String name, String superName, List<String> interfaces, int access,
            Map<String, Integer> methods, Set<String> capturingMethods) {
        public boolean isInterface() {
            return (access & Opcodes.ACC_INTERFACE) != 0;
        }

        /** Access flags of the declared method {@code name+descriptor}, or null when not declared here. */
        public Integer methodAccess(String nameAndDescriptor) {
            return methods.get(nameAndDescriptor);
        }
    }

    /** The header the cache holds for a class found nowhere. */
    private static final ClassInfo NOT_FOUND = new ClassInfo("", null, List.of(), 0, Map.of(), Set.of());

    private final Map<String, ClassInfo> known = new HashMap<>();
    /** The redirects that apply to the program: without pico-net's unless it has pico-net (see {@link #useNet}). */
    private Redirects redirects = Redirects.table();
    /** Whether the running JDK has a class, by internal name; concurrent. */
    private final Map<String, Boolean> jdkClasses = new ConcurrentHashMap<>();
    /**
     * The headers read from the classpath or the JDK, {@link #NOT_FOUND} for a name found nowhere; concurrent, since
     * the facade rewrites independent classes in parallel (two threads reading the same class read equal headers).
     */
    private final Map<String, ClassInfo> cache = new ConcurrentHashMap<>();
    private final List<Path> directories = new ArrayList<>();
    private final List<ZipFile> archives = new ArrayList<>();
    /** The classes of the classpath that are read as they will be after the rewrite (see {@link #rewriteHeadersOf}). */
    private Predicate<String> rewrittenOnTheClasspath = name -> false;

    public ClassHierarchy(List<Path> classpath) throws IOException {
        for (Path entry : classpath) {
            if (Files.isDirectory(entry)) {
                directories.add(entry);
            } else if (Files.isRegularFile(entry)) {
                archives.add(new ZipFile(entry.toFile()));
            } else {
                throw new IOException("classpath entry " + entry + " does not exist");
            }
        }
        Redirects.table().replacedTypes().forEach((type, replacement) -> known.put(replacement,
                new ClassInfo(replacement, type, List.of(), Opcodes.ACC_PUBLIC, Map.of(), Set.of())));
    }

    /**
     * Chooses the redirects for a program with pico-net when {@code withNet}, and without pico-net's otherwise
     * (the facade decides, from the classes and this classpath). Called before any class is registered.
     */
    public void useNet(boolean withNet) {
        redirects = Redirects.table(withNet);
    }

    /**
     * Answers for the classpath's classes that {@code program} accepts with their headers as they will be after the
     * rewrite (as {@link #register} would), for a program whose classes are read from the classpath as it runs.
     */
    public void rewriteHeadersOf(Predicate<String> program) {
        rewrittenOnTheClasspath = program;
    }

    /** The header as it will be after the rewrite: a class extending a replaced JDK type extends its replacement. */
    public ClassInfo rewritten(ClassInfo header) {
        String replacement = redirects.replacementType(String.valueOf(header.superName()));
        if (replacement != null && !header.isInterface() && !replacement.equals(header.name())) {
            return new ClassInfo(header.name(), replacement, header.interfaces(), header.access(), header.methods(),
                    header.capturingMethods());
        }
        return header;
    }

    /** The redirects that apply to the program being transformed. */
    public Redirects redirects() {
        return redirects;
    }

    /** Registers a class being transformed, with the superclass it will have after the rewrite. */
    public void register(ClassInfo info) {
        known.put(info.name(), info);
    }

    /** The class's header, or null when the class is found nowhere. */
    public ClassInfo find(String internalName) {
        ClassInfo info = known.get(internalName);
        if (info != null) {
            return info;
        }
        info = cache.get(internalName);
        if (info != null) {
            return info == NOT_FOUND ? null : info;
        }
        info = read(internalName);
        if (info != null && rewrittenOnTheClasspath.test(internalName)) {
            info = rewritten(info);
        }
        cache.put(internalName, info == null ? NOT_FOUND : info);
        return info;
    }

    /** The class's header; throws {@link MissingClassException} when the class is found nowhere. */
    public ClassInfo require(String internalName) {
        ClassInfo info = find(internalName);
        if (info == null) {
            throw new MissingClassException(internalName);
        }
        return info;
    }

    /**
     * True when {@code type} is {@code ancestor} or one of its subclasses or implementations; a class found
     * nowhere is taken to be no subtype.
     */
    public boolean isSubtypeOf(String type, String ancestor) {
        return isSubtype(type, ancestor, false);
    }

    /**
     * The type and every class and interface it extends or implements, as far as they can be found: {@code type} is a
     * subtype of {@code ancestor} ({@link #isSubtypeOf}) exactly when {@code ancestor} is Object or among them.
     */
    public Set<String> supertypesOf(String type) {
        Set<String> found = new HashSet<>();
        Deque<String> pending = new ArrayDeque<>();
        pending.push(type);
        while (!pending.isEmpty()) {
            String next = pending.pop();
            if (!found.add(next)) {
                continue;
            }
            ClassInfo info = find(next);
            if (info == null) {
                continue;
            }
            if (info.superName() != null) {
                pending.push(info.superName());
            }
            for (String implemented : info.interfaces()) {
                pending.push(implemented);
            }
        }
        return found;
    }

    /** Like {@link #isSubtypeOf} but throws {@link MissingClassException} for a class found nowhere. */
    public boolean isSubtypeOfStrict(String type, String ancestor) {
        return isSubtype(type, ancestor, true);
    }

    private boolean isSubtype(String type, String ancestor, boolean strict) {
        if (type.equals(ancestor) || ancestor.equals(RuntimeNames.OBJECT)) {
            return true;
        }
        ClassInfo info = strict ? require(type) : find(type);
        if (info == null) {
            return false;
        }
        if (info.superName() != null && isSubtype(info.superName(), ancestor, strict)) {
            return true;
        }
        for (String implemented : info.interfaces()) {
            if (isSubtype(implemented, ancestor, strict)) {
                return true;
            }
        }
        return false;
    }

    /** The most specific common superclass of two classes, Object when either is an interface. */
    public String commonSuperClass(String first, String second) {
        if (isSubtypeOfStrict(first, second)) {
            return require(second).isInterface() ? RuntimeNames.OBJECT : second;
        }
        if (isSubtypeOfStrict(second, first)) {
            return require(first).isInterface() ? RuntimeNames.OBJECT : first;
        }
        if (require(first).isInterface() || require(second).isInterface()) {
            return RuntimeNames.OBJECT;
        }
        String candidate = first;
        do {
            candidate = require(candidate).superName();
            if (candidate == null) {
                return RuntimeNames.OBJECT;
            }
        } while (!isSubtypeOfStrict(second, candidate));
        return candidate;
    }

    /**
     * True when the running JDK has a class of this name (whatever the classpath holds: at run time the JDK's class
     * loaders find it first).
     */
    public boolean isJdkClass(String internalName) {
        return jdkClasses.computeIfAbsent(internalName,
                name -> ClassLoader.getPlatformClassLoader().getResource(name + ".class") != null);
    }

    /** The superclass chain of {@code type}, starting with {@code type} itself, as far as it is known. */
    public List<ClassInfo> superclassChain(String type) {
        List<ClassInfo> chain = new ArrayList<>();
        for (ClassInfo info = find(type); info != null; info = info.superName() == null ? null : find(info.superName())) {
            chain.add(info);
        }
        return chain;
    }

    @Override
    public void close() throws IOException {
        for (ZipFile archive : archives) {
            archive.close();
        }
    }

    private ClassInfo read(String internalName) {
        byte[] classFile = classFile(internalName);
        if (classFile != null) {
            return parse(classFile);
        }
        String resource = internalName + ".class";
        try (InputStream in = ClassLoader.getPlatformClassLoader().getResourceAsStream(resource)) {
            return in == null ? null : parse(in.readAllBytes());
        } catch (IOException exception) {
            throw new UncheckedIOException("cannot read " + resource + " from the JDK", exception);
        }
    }

    /**
     * For each method ({@code name+descriptor}), the classes of the classpath that {@code program} accepts and that
     * declare it, by internal name: one reading of every class file's method table (the first class of each name, as
     * a class loader finds it).
     */
    public Map<String, List<String>> declaringClassesByMethod(Predicate<String> program) {
        Map<String, List<String>> declaring = new HashMap<>();
        Set<String> seen = new HashSet<>();
        try {
            for (Path directory : directories) {
                try (var files = Files.walk(directory)) {
                    for (Path file : (Iterable<Path>) files::iterator) {
                        String relative = directory.relativize(file).toString().replace('\\', '/');
                        String name = classNameOf(relative);
                        if (name != null && Files.isRegularFile(file) && seen.add(name) && program.test(name)) {
                            declare(name, Files.readAllBytes(file), declaring);
                        }
                    }
                }
            }
            for (ZipFile archive : archives) {
                for (var entries = archive.entries(); entries.hasMoreElements(); ) {
                    ZipEntry entry = entries.nextElement();
                    String name = entry.isDirectory() ? null : classNameOf(entry.getName());
                    // The name first: only the program's classes are inflated and read.
                    if (name != null && seen.add(name) && program.test(name)) {
                        try (InputStream in = archive.getInputStream(entry)) {
                            declare(name, in.readAllBytes(), declaring);
                        }
                    }
                }
            }
        } catch (IOException exception) {
            throw new UncheckedIOException("cannot read the classpath", exception);
        }
        return declaring;
    }

    /** The internal name of the class a class path resource holds, or null when it is no class file. */
    private static String classNameOf(String resource) {
        return resource.endsWith(".class") ? resource.substring(0, resource.length() - ".class".length()) : null;
    }

    /** Adds the methods the class file of the class {@code name} declares to {@code declaring}. */
    private static void declare(String name, byte[] classFile, Map<String, List<String>> declaring) {
        try {
            // Only the names of the declared methods: read past the constant pool, the interfaces and the fields.
            ClassReader reader = new ClassReader(classFile);
            if (!name.equals(reader.getClassName())) {
                return;
            }
            char[] buffer = new char[reader.getMaxStringLength()];
            int offset = ClassFileTables.methodsOffset(reader);
            int methods = reader.readUnsignedShort(offset);
            offset += 2;
            for (int index = 0; index < methods; index++) {
                String method = reader.readUTF8(offset + 2, buffer) + reader.readUTF8(offset + 4, buffer);
                declaring.computeIfAbsent(method, unused -> new ArrayList<>()).add(name);
                offset = ClassFileTables.skipAttributes(reader, offset + 6);
            }
        } catch (RuntimeException unreadable) {
            // The class fails when it loads; it declares nothing here.
        }
    }

    /** The class file of the first class of this name on the classpath (not the JDK's), or null. */
    public byte[] classFile(String internalName) {
        String resource = internalName + ".class";
        try {
            for (Path directory : directories) {
                Path file = directory.resolve(resource);
                if (Files.isRegularFile(file)) {
                    return Files.readAllBytes(file);
                }
            }
            for (ZipFile archive : archives) {
                ZipEntry entry = archive.getEntry(resource);
                if (entry != null) {
                    try (InputStream in = archive.getInputStream(entry)) {
                        return in.readAllBytes();
                    }
                }
            }
            return null;
        } catch (IOException exception) {
            throw new UncheckedIOException("cannot read " + resource + " from the classpath", exception);
        }
    }

    /** Reads a class header from a class file. */
    public static ClassInfo parse(byte[] classFile) {
        HeaderReader header = new HeaderReader();
        new ClassReader(classFile).accept(header,
                ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        return header.result;
    }

    /** The header of a class already read whole, as {@link #parse} reads it from its class file. */
    public static ClassInfo header(ClassNode classNode) {
        HeaderReader header = new HeaderReader();
        classNode.accept(header);
        return header.result;
    }

    /** Collects a class's header, with the methods its {@code Rewritten} marker lists, from the class's events. */
    private static final class HeaderReader extends ClassVisitor {
        private final Map<String, Integer> methods = new HashMap<>();
        private final Set<String> capturingMethods = new HashSet<>();
        private String name;
        private String superName;
        private List<String> interfaces;
        private int access;
        /** The header, once the class's last event came. */
        private ClassInfo result;

        HeaderReader() {
            super(RuntimeNames.ASM_API);
        }

        @Override
        public void visit(int version, int access, String name, String signature, String superName,
                String[] interfaces) {
            this.name = name;
            this.superName = superName;
            this.interfaces = interfaces == null ? List.of() : List.of(interfaces);
            this.access = access;
        }

        @Override
        public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
            if (!descriptor.equals(RuntimeNames.REWRITTEN_MARKER)) {
                return null;
            }
            return new AnnotationVisitor(RuntimeNames.ASM_API) {
                @Override
                public AnnotationVisitor visitArray(String elementName) {
                    if (!elementName.equals("value")) {
                        return null;
                    }
                    return new AnnotationVisitor(RuntimeNames.ASM_API) {
                        @Override
                        public void visit(String ignored, Object method) {
                            capturingMethods.add((String) method);
                        }
                    };
                }
            };
        }

        @Override
        public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                String[] exceptions) {
            methods.put(name + descriptor, access);
            return null;
        }

        @Override
        public void visitEnd() {
            result = new ClassInfo(name, superName, interfaces, access, methods, Set.copyOf(capturingMethods));
        }
    }
}
