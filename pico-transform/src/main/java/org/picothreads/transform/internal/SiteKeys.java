package org.picothreads.transform.internal;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.picothreads.transform.internal.hierarchy.ClassFileTables;

/**
 * Adds to a written class's marker what the runtime's frame check must read of a frame to know it is stopped at a
 * suspension call site ({@link RuntimeNames#SITE_KEYS_ELEMENT}), so that it resolves a frame's method descriptor only
 * where the offset, or the name and the offset, could also belong to a call that is not a suspension site.
 *
 * <p>A frame below a frame the check trusts is stopped at an instruction through which Java code runs above it: a
 * method call or invokedynamic, or an instruction that refers to the constant pool (resolving it can load a class
 * through a class loader of the program's, whose {@code loadClass} may be rewritten, or run a class initializer). Such
 * an instruction is a <em>position</em>. Every other instruction (arithmetic, array access, branches, returns, athrow,
 * monitors) runs no Java code but the JDK's own exception constructors, whose frames the check never trusts. For each
 * suspension site, at offset {@code b} of capturing method {@code m} named {@code N}:
 * <pre>
 *   'o'  no method of the class has a position at b that is not a suspension site of its own:
 *        a frame of the class stopped at b is at a suspension site, whatever its method
 *   'n'  no method named N has such a position at b: a frame of a method named N stopped at b is at a suspension site
 *   'd'  otherwise: the check must find the frame's method by its descriptor
 * </pre>
 * Every method counts: the capturing methods, their continuations (same name, one more parameter), the resume entry,
 * overloads left as they were, and any method the input already declared with a name the transformer reserves.
 * Positions are read from the class file as written (its Code attributes, instruction by instruction), so that
 * methods the class writer copied through byte for byte are seen at their real offsets. The marker gains the element
 * by an edit of the written bytes that moves no code ({@link MarkerPatch}), the bytes a second pass of the class
 * writer copying every method through unchanged would give (that pass is kept for the class files the edit declines).
 */
final class SiteKeys {
    /** The key of a site that the class's bytecode offset alone identifies. */
    static final char BY_OFFSET = 'o';
    /** The key of a site that the method's name and the offset identify. */
    static final char BY_NAME = 'n';
    /** The key of a site that needs the method's descriptor too. */
    static final char BY_DESCRIPTOR = 'd';

    private SiteKeys() {
    }

    /**
     * The class file with the site keys added to its marker, computed from the marker's capturing methods and their
     * sites ({@code methods} and {@code sites}, as the marker lists them) and from the written code.
     */
    static byte[] addTo(byte[] classFile, List<String> methods, List<String> sites) {
        ClassReader reader = new ClassReader(classFile);
        List<String> keys = keys(methods, sites, positions(reader));
        byte[] patched = MarkerPatch.appendToMarker(reader, classFile, RuntimeNames.SITE_KEYS_ELEMENT, keys);
        return patched != null ? patched : addByCopying(reader, keys);
    }

    /**
     * The class file with the keys added to its marker by copying it with a class writer that copies every method
     * through unchanged, so that no offset moves: what {@link MarkerPatch} gives by editing the bytes, for the class
     * files it does not edit.
     */
    static byte[] addByCopying(ClassReader reader, List<String> keys) {
        ClassWriter writer = new ClassWriter(reader, 0);
        reader.accept(new ClassVisitor(RuntimeNames.ASM_API, writer) {
            @Override
            public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
                AnnotationVisitor written = super.visitAnnotation(descriptor, visible);
                if (!descriptor.equals(RuntimeNames.REWRITTEN_MARKER)) {
                    return written;
                }
                return new AnnotationVisitor(RuntimeNames.ASM_API, written) {
                    @Override
                    public void visitEnd() {
                        AnnotationVisitor array = super.visitArray(RuntimeNames.SITE_KEYS_ELEMENT);
                        for (String key : keys) {
                            array.visit(null, key);
                        }
                        array.visitEnd();
                        super.visitEnd();
                    }
                };
            }
        }, 0);
        return writer.toByteArray();
    }

    /**
     * One key string per capturing method, one letter per site in the order of {@code sites}, from each method's
     * positions ({@code name+descriptor} to the set of their offsets).
     */
    static List<String> keys(List<String> methods, List<String> sites, Map<String, BitSet> positions) {
        Map<String, BitSet> sitesByMethod = new HashMap<>();
        for (int index = 0; index < methods.size(); index++) {
            sitesByMethod.put(methods.get(index), offsets(index < sites.size() ? sites.get(index) : ""));
        }
        // The offsets at which some method has a position that is not one of its own suspension sites, in the whole
        // class and by method name.
        BitSet ambiguousInClass = new BitSet();
        Map<String, BitSet> ambiguousByName = new HashMap<>();
        BitSet noSites = new BitSet();
        positions.forEach((method, offsets) -> {
            BitSet ambiguous = (BitSet) offsets.clone();
            ambiguous.andNot(sitesByMethod.getOrDefault(method, noSites));
            if (!ambiguous.isEmpty()) {
                ambiguousInClass.or(ambiguous);
                ambiguousByName.computeIfAbsent(nameOf(method), name -> new BitSet()).or(ambiguous);
            }
        });
        List<String> keys = new ArrayList<>(methods.size());
        for (int index = 0; index < methods.size(); index++) {
            String method = methods.get(index);
            BitSet sameName = ambiguousByName.getOrDefault(nameOf(method), noSites);
            BitSet written = positions.getOrDefault(method, noSites);
            String methodSites = index < sites.size() ? sites.get(index) : "";
            StringBuilder key = new StringBuilder();
            for (int start = 0; start < methodSites.length(); ) {
                int end = methodSites.indexOf(',', start);
                end = end < 0 ? methodSites.length() : end;
                int offset = Integer.parseInt(methodSites, start, end, 10);
                key.append(!written.get(offset) || sameName.get(offset) ? BY_DESCRIPTOR
                        : ambiguousInClass.get(offset) ? BY_NAME : BY_OFFSET);
                start = end + 1;
            }
            keys.add(key.toString());
        }
        return keys;
    }

    /**
     * The offsets of the positions of every method with code in the class file, by {@code name+descriptor}, read from
     * the class file's bytes (the class reader's visitors do not tell offsets).
     */
    static Map<String, BitSet> positions(ClassReader reader) {
        Map<String, BitSet> positions = new HashMap<>();
        char[] buffer = new char[reader.getMaxStringLength()];
        int offset = ClassFileTables.methodsOffset(reader);
        int methods = reader.readUnsignedShort(offset);
        offset += 2;
        for (int method = 0; method < methods; method++) {
            String key = null;
            int attributes = reader.readUnsignedShort(offset + 6);
            int nameAndDescriptor = offset + 2;
            offset += 8;
            for (int attribute = 0; attribute < attributes; attribute++) {
                if ("Code".equals(reader.readUTF8(offset, buffer))) {
                    if (key == null) {
                        key = reader.readUTF8(nameAndDescriptor, buffer) + reader.readUTF8(nameAndDescriptor + 2,
                                buffer);
                    }
                    positions.put(key, codePositions(reader, offset + 14, reader.readInt(offset + 10)));
                }
                offset += 6 + reader.readInt(offset + 2);
            }
        }
        return positions;
    }

    /** The offsets of the positions in the code of {@code length} bytes that starts at {@code start}. */
    private static BitSet codePositions(ClassReader reader, int start, int length) {
        BitSet positions = new BitSet(length);
        int offset = 0;
        while (offset < length) {
            int opcode = reader.readByte(start + offset);
            if (isPosition(opcode)) {
                positions.set(offset);
            }
            offset += instructionLength(reader, start, offset, opcode);
        }
        return positions;
    }

    /**
     * An instruction through which Java code other than the JDK's exception constructors may run above its frame:
     * ldc, ldc_w, ldc2_w, the field and method instructions, invokedynamic, new, anewarray, checkcast, instanceof and
     * multianewarray.
     */
    private static boolean isPosition(int opcode) {
        return opcode >= 0x12 && opcode <= 0x14 || opcode >= 0xb2 && opcode <= 0xbb || opcode == 0xbd
                || opcode == 0xc0 || opcode == 0xc1 || opcode == 0xc5;
    }

    /** The length in bytes of the instruction at {@code offset} of the code that starts at {@code start}. */
    private static int instructionLength(ClassReader reader, int start, int offset, int opcode) {
        switch (opcode) {
            case 0xaa: { // tableswitch: padding to a multiple of 4, default, low, high, one jump per value
                int operands = offset + 4 - (offset & 3);
                int low = reader.readInt(start + operands + 4);
                int high = reader.readInt(start + operands + 8);
                return operands - offset + 12 + 4 * (high - low + 1);
            }
            case 0xab: { // lookupswitch: padding, default, count, one match and jump per pair
                int operands = offset + 4 - (offset & 3);
                return operands - offset + 8 + 8 * reader.readInt(start + operands + 4);
            }
            case 0xc4: // wide: iinc with a 16-bit index and constant, or a load or store with a 16-bit index
                return reader.readByte(start + offset + 1) == 0x84 ? 6 : 4;
            case 0x10, 0x12, 0x15, 0x16, 0x17, 0x18, 0x19, 0x36, 0x37, 0x38, 0x39, 0x3a, 0xa9, 0xbc:
                return 2;
            case 0x11, 0x13, 0x14, 0x84, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xbb, 0xbd, 0xc0, 0xc1, 0xc6, 0xc7:
                return 3;
            case 0xc5:
                return 4;
            case 0xb9, 0xba, 0xc8, 0xc9:
                return 5;
            default:
                return opcode >= 0x99 && opcode <= 0xa8 ? 3 : 1; // the conditional branches, goto and jsr; the rest
        }
    }

    private static String nameOf(String method) {
        return method.substring(0, method.indexOf('('));
    }

    private static BitSet offsets(String sites) {
        BitSet offsets = new BitSet();
        for (int start = 0; start < sites.length(); ) {
            int end = sites.indexOf(',', start);
            end = end < 0 ? sites.length() : end;
            offsets.set(Integer.parseInt(sites, start, end, 10));
            start = end + 1;
        }
        return offsets;
    }
}
