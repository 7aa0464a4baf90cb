package org.picothreads.transform.internal;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.objectweb.asm.Opcodes;
import org.picothreads.transform.internal.hierarchy.ClassHierarchy;

/**
 * The table of JDK members that rewritten code reaches through the runtime instead, read from the
 * resource {@code org/picothreads/transform/redirects.txt} (its header explains the kinds of entry):
 * types replaced by a runtime subclass at creation, static methods, instance methods turned into static
 * runtime calls that take the receiver first, and runtime primitives that can block.
 */
public final class Redirects {
    /** A redirected method: the runtime method that stands in for it and whether it can block. */
    public record Redirect(String owner, String name, String descriptor, boolean blocking) {
    }

    private static final String RESOURCE = "/org/picothreads/transform/redirects.txt";
    /** What separates the fields of an entry (compiled once: the table is read as the agent starts). */
    private static final Pattern FIELD_SEPARATOR = Pattern.compile("\\s+");
    private static final Redirects TABLE = load();
    /** The table without the entries that lead to pico-net, for a program that does not have it. */
    private static final Redirects WITHOUT_NET = TABLE.without(RuntimeNames.NET_PACKAGE);

    /** JDK type to the runtime subclass created instead. */
    private final Map<String, String> replacedTypes;
    /** {@code name+descriptor} to the static redirects of that member, by JDK owner. */
    private final Map<String, Map<String, Redirect>> staticMethods;
    private final Map<String, Map<String, Redirect>> instanceMethods;
    /** The runtime methods that can block, as {@code owner.name+descriptor}. */
    private final Set<String> blockingTargets;
    /** The JDK member each runtime method stands in for, both as {@code owner.name+descriptor}. */
    private final Map<String, String> jdkMembers;
    /** The runtime methods of {@code dispatched} entries, which a super call does not reach, as {@code owner.name+descriptor}. */
    private final Set<String> dispatchedTargets;
    /** For {@code completion} entries, by {@code JDK-TYPE.<init>DESCRIPTOR}: the runtime method called on the new object. */
    private final Map<String, Redirect> completions;
    /**
     * The runtime methods of {@code interface} entries, which only a call through an interface (invokeinterface)
     * reaches, as {@code owner.name+descriptor}.
     */
    private final Set<String> interfaceTargets;
    /**
     * The runtime methods of {@code transparent} entries, as {@code owner.name+descriptor}: a call of one can suspend
     * exactly when the JDK call it stands in for can (the analysis judges that call instead).
     */
    private final Set<String> transparentTargets;

    private Redirects(Map<String, String> replacedTypes, Map<String, Map<String, Redirect>> staticMethods,
            Map<String, Map<String, Redirect>> instanceMethods, Set<String> blockingTargets,
            Map<String, String> jdkMembers, Set<String> dispatchedTargets, Map<String, Redirect> completions,
            Set<String> interfaceTargets, Set<String> transparentTargets) {
        this.dispatchedTargets = dispatchedTargets;
        this.interfaceTargets = interfaceTargets;
        this.transparentTargets = transparentTargets;
        this.completions = completions;
        this.replacedTypes = replacedTypes;
        this.staticMethods = staticMethods;
        this.instanceMethods = instanceMethods;
        this.blockingTargets = blockingTargets;
        this.jdkMembers = jdkMembers;
    }

    /**
     * How to name a called method to the user: the JDK member the program called when the call was
     * redirected to the runtime, else the method itself, as {@code owner.name+descriptor}.
     */
    public String describeCall(String owner, String name, String descriptor) {
        String called = owner + "." + name + descriptor;
        return jdkMembers.getOrDefault(called, called);
    }

    /** The table shipped with the transformer. */
    public static Redirects table() {
        return TABLE;
    }

    /**
     * The table for a program with or without pico-net at run time: without it, no entry leads to pico-net's types
     * or methods (sockets and java.io streams stay the JDK's), so that the rewritten classes need only the runtime.
     */
    public static Redirects table(boolean withNet) {
        return withNet ? TABLE : WITHOUT_NET;
    }

    /** This table without the entries whose runtime type or method lies in the package {@code prefix}. */
    private Redirects without(String prefix) {
        Map<String, String> types = new HashMap<>(replacedTypes);
        types.values().removeIf(replacement -> replacement.startsWith(prefix));
        Set<String> blocking = new HashSet<>(blockingTargets);
        blocking.removeIf(target -> target.startsWith(prefix));
        Map<String, String> members = new HashMap<>(jdkMembers);
        members.keySet().removeIf(target -> target.startsWith(prefix));
        Set<String> dispatched = new HashSet<>(dispatchedTargets);
        dispatched.removeIf(target -> target.startsWith(prefix));
        Map<String, Redirect> completed = new HashMap<>(completions);
        completed.values().removeIf(redirect -> redirect.owner().startsWith(prefix));
        Set<String> throughInterfaces = new HashSet<>(interfaceTargets);
        throughInterfaces.removeIf(target -> target.startsWith(prefix));
        Set<String> transparent = new HashSet<>(transparentTargets);
        transparent.removeIf(target -> target.startsWith(prefix));
        return new Redirects(Map.copyOf(types), withoutOwners(staticMethods, prefix),
                withoutOwners(instanceMethods, prefix), Set.copyOf(blocking), Map.copyOf(members),
                Set.copyOf(dispatched), Map.copyOf(completed), Set.copyOf(throughInterfaces), Set.copyOf(transparent));
    }

    private static Map<String, Map<String, Redirect>> withoutOwners(Map<String, Map<String, Redirect>> byMember,
            String prefix) {
        Map<String, Map<String, Redirect>> kept = new HashMap<>();
        byMember.forEach((member, byOwner) -> {
            Map<String, Redirect> owners = new HashMap<>(byOwner);
            owners.values().removeIf(redirect -> redirect.owner().startsWith(prefix));
            if (!owners.isEmpty()) {
                kept.put(member, owners);
            }
        });
        return kept;
    }

    /** The runtime type created instead of {@code type}, or null when {@code type} is not replaced. */
    public String replacementType(String type) {
        return replacedTypes.get(type);
    }

    /** Every replaced JDK type with its runtime replacement. */
    public Map<String, String> replacedTypes() {
        return replacedTypes;
    }

    /** Every redirect target, for checking them against the runtime. */
    public Collection<Redirect> allTargets() {
        List<Redirect> all = new ArrayList<>();
        staticMethods.values().forEach(byOwner -> all.addAll(byOwner.values()));
        instanceMethods.values().forEach(byOwner -> all.addAll(byOwner.values()));
        all.addAll(completions.values());
        return all;
    }

    /**
     * The runtime method that completes an object created with {@code new type(...)} through the constructor of
     * {@code descriptor} (such as the connect of a connecting Socket constructor), or null.
     */
    public Redirect completionOf(String type, String descriptor) {
        return completions.get(type + ".<init>" + descriptor);
    }

    /** True when the runtime method can block: a call to it can suspend. */
    public boolean isBlockingTarget(String owner, String name, String descriptor) {
        return blockingTargets.contains(owner + "." + name + descriptor);
    }

    /**
     * For the runtime method of a {@code transparent} entry, the JDK member it stands in for, as
     * {@code owner.name+descriptor} (the first entry's, when several interfaces share the method), whose call the
     * analysis judges in its place; otherwise null.
     */
    public String transparentOriginal(String owner, String name, String descriptor) {
        String target = owner + "." + name + descriptor;
        return transparentTargets.contains(target) ? jdkMembers.get(target) : null;
    }

    /**
     * The redirect for a call instruction, or null. A static method matches through a subclass that
     * inherits it without redeclaring it; an instance method matches on its type and every subtype, an
     * {@code interface} entry only a call through its interface or an interface that extends it, and a
     * {@code transparent} one only a call through its own type.
     */
    public Redirect forCall(int opcode, String owner, String name, String descriptor, ClassHierarchy hierarchy) {
        String member = name + descriptor;
        if (opcode == Opcodes.INVOKESTATIC) {
            Map<String, Redirect> candidates = staticMethods.get(member);
            if (candidates == null) {
                return null;
            }
            for (ClassHierarchy.ClassInfo info : hierarchy.superclassChain(owner)) {
                Redirect redirect = candidates.get(info.name());
                if (redirect != null) {
                    return redirect;
                }
                if (info.methodAccess(member) != null) {
                    return null;
                }
            }
            return candidates.get(owner);
        }
        if (name.equals("<init>")) {
            return null;
        }
        Map<String, Redirect> candidates = instanceMethods.get(member);
        if (candidates == null) {
            return null;
        }
        Redirect found = candidates.get(owner);
        if (found != null && !reachedBy(found, opcode)) {
            found = null;
        }
        if (found == null) {
            // the entry of the most specific type the owner extends, whatever the map's order
            String foundType = null;
            for (Map.Entry<String, Redirect> candidate : candidates.entrySet()) {
                if (reachedBy(candidate.getValue(), opcode) && !isTransparent(candidate.getValue())
                        && hierarchy.isSubtypeOf(owner, candidate.getKey())
                        && (foundType == null || hierarchy.isSubtypeOf(candidate.getKey(), foundType))) {
                    found = candidate.getValue();
                    foundType = candidate.getKey();
                }
            }
        }
        if (found != null && opcode == Opcodes.INVOKESPECIAL
                && dispatchedTargets.contains(found.owner() + "." + found.name() + found.descriptor())) {
            return null;
        }
        return found;
    }

    /** True for the target of a {@code transparent} entry, which only a call through its own type reaches. */
    private boolean isTransparent(Redirect redirect) {
        return transparentTargets.contains(redirect.owner() + "." + redirect.name() + redirect.descriptor());
    }

    /** False for the target of an {@code interface} entry when the call is not made through an interface. */
    private boolean reachedBy(Redirect redirect, int opcode) {
        return opcode == Opcodes.INVOKEINTERFACE
                || !interfaceTargets.contains(redirect.owner() + "." + redirect.name() + redirect.descriptor());
    }

    private static Redirects load() {
        Map<String, String> types = new HashMap<>();
        Map<String, Map<String, Redirect>> statics = new HashMap<>();
        Map<String, Map<String, Redirect>> instances = new HashMap<>();
        Set<String> blocking = new HashSet<>();
        Map<String, String> jdkMembers = new HashMap<>();
        Set<String> dispatched = new HashSet<>();
        Set<String> throughInterfaces = new HashSet<>();
        Set<String> transparent = new HashSet<>();
        Map<String, Redirect> completions = new HashMap<>();
        try (InputStream in = Redirects.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the transformer jar lacks " + RESOURCE);
            }
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            String line;
            int number = 0;
            while ((line = reader.readLine()) != null) {
                number++;
                int comment = line.indexOf('#');
                String[] fields = FIELD_SEPARATOR.split((comment >= 0 ? line.substring(0, comment) : line).trim());
                if (fields.length == 1 && fields[0].isEmpty()) {
                    continue;
                }
                switch (fields[0]) {
                    case "class" -> {
                        require(fields.length == 3, number, line);
                        types.put(fields[1], fields[2]);
                    }
                    case "static", "instance", "dispatched", "interface" -> {
                        require(fields.length == 7 || fields.length == 8 && (fields[7].equals("blocking")
                                || fields[7].equals("transparent")
                                        && (fields[0].equals("interface") || fields[0].equals("dispatched"))),
                                number, line);
                        boolean blocks = fields.length == 8 && fields[7].equals("blocking");
                        Redirect redirect = new Redirect(fields[4], fields[5], fields[6], blocks);
                        (fields[0].equals("static") ? statics : instances)
                                .computeIfAbsent(fields[2] + fields[3], key -> new HashMap<>())
                                .put(fields[1], redirect);
                        String target = redirect.owner() + "." + redirect.name() + redirect.descriptor();
                        if (redirect.blocking()) {
                            blocking.add(target);
                        }
                        if (fields[0].equals("dispatched")) {
                            dispatched.add(target);
                        }
                        if (fields[0].equals("interface")) {
                            throughInterfaces.add(target);
                        }
                        if (fields.length == 8 && fields[7].equals("transparent")) {
                            transparent.add(target);
                        }
                        jdkMembers.putIfAbsent(target, fields[1] + "." + fields[2] + fields[3]);
                    }
                    case "completion" -> {
                        require(fields.length == 7 && fields[2].equals("<init>"), number, line);
                        Redirect redirect = new Redirect(fields[4], fields[5], fields[6], true);
                        completions.put(fields[1] + ".<init>" + fields[3], redirect);
                        blocking.add(redirect.owner() + "." + redirect.name() + redirect.descriptor());
                    }
                    case "primitive" -> {
                        require(fields.length == 4, number, line);
                        blocking.add(fields[1] + "." + fields[2] + fields[3]);
                    }
                    default -> require(false, number, line);
                }
            }
        } catch (IOException exception) {
            throw new UncheckedIOException(exception);
        }
        return new Redirects(Map.copyOf(types), statics, instances, Set.copyOf(blocking), Map.copyOf(jdkMembers),
                Set.copyOf(dispatched), Map.copyOf(completions), Set.copyOf(throughInterfaces),
                Set.copyOf(transparent));
    }

    private static void require(boolean condition, int number, String line) {
        if (!condition) {
            throw new IllegalStateException(RESOURCE + " line " + number + " is malformed: " + line);
        }
    }
}
