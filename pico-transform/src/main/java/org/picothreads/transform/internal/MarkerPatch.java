package org.picothreads.transform.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassTooLargeException;
import org.picothreads.transform.internal.hierarchy.ClassFileTables;

/**
 * Adds an array of strings to the marker of a class file that ASM's class writer wrote, by editing its bytes: the
 * result is the very bytes that copying the class with a class writer built on its reader, the element added at the
 * end of the marker, gives (the constant pool copied, its new strings appended in the order they are first met, every
 * method copied through, every other structure written again as it was), without decoding and re-encoding the class.
 *
 * <p>That holds when every constant of the pool is written once: then each reference the copy writes again finds the
 * one entry it already names. A pool with two equal entries (which ASM's writer never makes, but an input's own pool
 * copied through may hold) is not edited: {@link #appendToMarker} answers null, and the caller copies the class.
 */
final class MarkerPatch {
    private static final int UTF8 = 1;
    private static final int INTEGER = 3;
    private static final int FLOAT = 4;
    private static final int LONG = 5;
    private static final int DOUBLE = 6;
    private static final int METHOD_HANDLE = 15;
    private static final int MOST_CONSTANTS = 0xFFFF;

    private MarkerPatch() {
    }

    /**
     * The class file with the array {@code values} added, under the element name {@code element}, at the end of its
     * one marker annotation; null when the pool holds two equal constants or the class has not exactly one marker.
     *
     * @throws ClassTooLargeException when the new strings take the constant pool past its largest size, as the class
     *                                writer would
     */
    static byte[] appendToMarker(ClassReader reader, byte[] classFile, String element, List<String> values) {
        // the strings the element needs, in the order the copy would first meet them
        Map<String, Integer> strings = new LinkedHashMap<>();
        strings.put(element, 0);
        values.forEach(value -> strings.putIfAbsent(value, 0));
        if (!indexExistingStrings(reader, classFile, strings)) {
            return null;
        }
        int constantCount = reader.getItemCount();
        List<String> added = new ArrayList<>();
        for (Map.Entry<String, Integer> string : strings.entrySet()) {
            if (string.getValue() == 0) {
                string.setValue(constantCount + added.size());
                added.add(string.getKey());
            }
        }
        int newCount = constantCount + added.size();
        if (newCount > MOST_CONSTANTS) {
            throw new ClassTooLargeException(reader.getClassName(), newCount);
        }
        int[] marker = findMarker(reader);
        if (marker == null) {
            return null;
        }
        int attributeStart = marker[0];
        int annotationStart = marker[1];
        int annotationEnd = marker[2];
        byte[] pair = pair(strings, element, values);
        byte[] addedConstants = utf8Entries(added);
        int poolEnd = reader.header;
        byte[] patched = new byte[classFile.length + addedConstants.length + pair.length];
        System.arraycopy(classFile, 0, patched, 0, poolEnd);
        putShort(patched, 8, newCount);
        int to = poolEnd;
        System.arraycopy(addedConstants, 0, patched, to, addedConstants.length);
        to += addedConstants.length;
        System.arraycopy(classFile, poolEnd, patched, to, annotationEnd - poolEnd);
        int shift = to - poolEnd;
        // the attribute's length and the marker's pair count grow
        int lengthAt = attributeStart + 2 + shift;
        putInt(patched, lengthAt, reader.readInt(attributeStart + 2) + pair.length);
        int pairsAt = annotationStart + 2 + shift;
        putShort(patched, pairsAt, reader.readUnsignedShort(annotationStart + 2) + 1);
        to += annotationEnd - poolEnd;
        System.arraycopy(pair, 0, patched, to, pair.length);
        to += pair.length;
        System.arraycopy(classFile, annotationEnd, patched, to, classFile.length - annotationEnd);
        return patched;
    }

    /**
     * Sets the index of each of {@code strings} that the pool holds already; false when the pool holds two equal
     * constants.
     */
    private static boolean indexExistingStrings(ClassReader reader, byte[] classFile, Map<String, Integer> strings) {
        Map<String, byte[]> encodings = new HashMap<>();
        int longest = 0;
        for (String string : strings.keySet()) {
            byte[] encoded = modifiedUtf8(string);
            encodings.put(string, encoded);
            longest = Math.max(longest, encoded.length);
        }
        int count = reader.getItemCount();
        int[] table = new int[Integer.highestOneBit(Math.max(count, 2)) << 2];
        int mask = table.length - 1;
        for (int index = 1; index < count; index++) {
            int start = reader.getItem(index) - 1;
            if (start < 0) {
                continue; // the second slot of a long or a double
            }
            int end = start + entryLength(reader, start);
            // the length and the bytes at both ends: equal entries collide, and the few others are told apart below
            int hash = end - start;
            for (int at = start; at < Math.min(end, start + 12); at++) {
                hash = 31 * hash + classFile[at];
            }
            for (int at = Math.max(start + 12, end - 8); at < end; at++) {
                hash = 31 * hash + classFile[at];
            }
            for (int slot = (hash ^ (hash >>> 16)) & mask; ; slot = (slot + 1) & mask) {
                int other = table[slot];
                if (other == 0) {
                    table[slot] = index;
                    break;
                }
                int otherStart = reader.getItem(other) - 1;
                int otherEnd = otherStart + entryLength(reader, otherStart);
                if (Arrays.equals(classFile, start, end, classFile, otherStart, otherEnd)) {
                    return false;
                }
            }
            if (classFile[start] == UTF8 && end - start - 3 <= longest) {
                for (Map.Entry<String, byte[]> encoding : encodings.entrySet()) {
                    byte[] encoded = encoding.getValue();
                    if (Arrays.equals(classFile, start + 3, end, encoded, 0, encoded.length)) {
                        strings.put(encoding.getKey(), index);
                    }
                }
            }
        }
        return true;
    }

    /** The length in bytes of the constant pool entry whose tag is at {@code start}. */
    private static int entryLength(ClassReader reader, int start) {
        int tag = reader.readByte(start);
        return switch (tag) {
            case UTF8 -> 3 + reader.readUnsignedShort(start + 1);
            case LONG, DOUBLE -> 9;
            case INTEGER, FLOAT -> 5;
            case METHOD_HANDLE -> 4;
            case 7, 8, 16, 19, 20 -> 3; // Class, String, MethodType, Module, Package
            default -> 5; // Fieldref, Methodref, InterfaceMethodref, NameAndType, Dynamic, InvokeDynamic
        };
    }

    /**
     * The offsets of the class's RuntimeVisibleAnnotations attribute and of the start and end of its one marker
     * annotation, or null when it has none or more than one.
     */
    private static int[] findMarker(ClassReader reader) {
        char[] buffer = new char[Math.max(reader.getMaxStringLength(), 1)];
        int offset = ClassFileTables.methodsOffset(reader);
        int methods = reader.readUnsignedShort(offset);
        offset += 2;
        for (int method = 0; method < methods; method++) {
            offset = ClassFileTables.skipAttributes(reader, offset + 6);
        }
        int attributes = reader.readUnsignedShort(offset);
        offset += 2;
        int[] found = null;
        for (int attribute = 0; attribute < attributes; attribute++) {
            if ("RuntimeVisibleAnnotations".equals(reader.readUTF8(offset, buffer))) {
                int annotations = reader.readUnsignedShort(offset + 6);
                int at = offset + 8;
                for (int annotation = 0; annotation < annotations; annotation++) {
                    int end = skipAnnotation(reader, at);
                    if (RuntimeNames.REWRITTEN_MARKER.equals(reader.readUTF8(at, buffer))) {
                        if (found != null) {
                            return null;
                        }
                        found = new int[] {offset, at, end};
                    }
                    at = end;
                }
            }
            offset += 6 + reader.readInt(offset + 2);
        }
        return found;
    }

    /** The offset after the annotation that starts at {@code offset} (its type, then its element-value pairs). */
    private static int skipAnnotation(ClassReader reader, int offset) {
        int pairs = reader.readUnsignedShort(offset + 2);
        offset += 4;
        for (int pair = 0; pair < pairs; pair++) {
            offset = skipElementValue(reader, offset + 2);
        }
        return offset;
    }

    private static int skipElementValue(ClassReader reader, int offset) {
        int tag = reader.readByte(offset);
        switch (tag) {
            case 'e':
                return offset + 5;
            case '@':
                return skipAnnotation(reader, offset + 1);
            case '[': {
                int values = reader.readUnsignedShort(offset + 1);
                offset += 3;
                for (int value = 0; value < values; value++) {
                    offset = skipElementValue(reader, offset);
                }
                return offset;
            }
            default: // B C D F I J S Z s c: one constant pool index
                return offset + 3;
        }
    }

    /** The element-value pair: the element's name, then the array of strings. */
    private static byte[] pair(Map<String, Integer> strings, String element, List<String> values) {
        byte[] pair = new byte[5 + 3 * values.size()];
        putShort(pair, 0, strings.get(element));
        pair[2] = '[';
        putShort(pair, 3, values.size());
        int at = 5;
        for (String value : values) {
            pair[at] = 's';
            putShort(pair, at + 1, strings.get(value));
            at += 3;
        }
        return pair;
    }

    /** The constant pool entries of the strings, each CONSTANT_Utf8 in modified UTF-8. */
    private static byte[] utf8Entries(List<String> strings) {
        List<byte[]> entries = new ArrayList<>(strings.size());
        int length = 0;
        for (String string : strings) {
            byte[] encoded = modifiedUtf8(string);
            byte[] entry = new byte[3 + encoded.length];
            entry[0] = UTF8;
            putShort(entry, 1, encoded.length);
            System.arraycopy(encoded, 0, entry, 3, encoded.length);
            entries.add(entry);
            length += entry.length;
        }
        byte[] all = new byte[length];
        int at = 0;
        for (byte[] entry : entries) {
            System.arraycopy(entry, 0, all, at, entry.length);
            at += entry.length;
        }
        return all;
    }

    private static byte[] modifiedUtf8(String string) {
        byte[] encoded = new byte[3 * string.length()];
        int length = 0;
        for (int index = 0; index < string.length(); index++) {
            char character = string.charAt(index);
            if (character >= 0x0001 && character <= 0x007F) {
                encoded[length++] = (byte) character;
            } else if (character <= 0x07FF) {
                encoded[length++] = (byte) (0xC0 | character >> 6 & 0x1F);
                encoded[length++] = (byte) (0x80 | character & 0x3F);
            } else {
                encoded[length++] = (byte) (0xE0 | character >> 12 & 0xF);
                encoded[length++] = (byte) (0x80 | character >> 6 & 0x3F);
                encoded[length++] = (byte) (0x80 | character & 0x3F);
            }
        }
        return Arrays.copyOf(encoded, length);
    }

    private static void putShort(byte[] bytes, int offset, int value) {
        bytes[offset] = (byte) (value >>> 8);
        bytes[offset + 1] = (byte) value;
    }

    private static void putInt(byte[] bytes, int offset, int value) {
        putShort(bytes, offset, value >>> 16);
        putShort(bytes, offset + 2, value);
    }
}
