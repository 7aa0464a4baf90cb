package org.picothreads.transform.internal.hierarchy;

import org.objectweb.asm.ClassReader;

/**
 * Finds the tables of a class file by their byte offsets, for readers that need less than ASM's visitors give (only
 * the declared methods' names) or more (where each method's code lies): JVMS 4.1, {@code ClassFile}.
 */
public final class ClassFileTables {
    private ClassFileTables() {
    }

    /**
     * The offset of the class file's {@code methods_count}, read past the constant pool, the access flags, this and
     * super class, the interfaces and the fields.
     */
    public static int methodsOffset(ClassReader reader) {
        int offset = reader.header + 6;
        offset += 2 + 2 * reader.readUnsignedShort(offset);
        int fields = reader.readUnsignedShort(offset);
        offset += 2;
        for (int field = 0; field < fields; field++) {
            offset = skipAttributes(reader, offset + 6);
        }
        return offset;
    }

    /** The offset after an attributes table (its count and its attributes) that starts at {@code offset}. */
    public static int skipAttributes(ClassReader reader, int offset) {
        int count = reader.readUnsignedShort(offset);
        offset += 2;
        for (int index = 0; index < count; index++) {
            offset += 6 + reader.readInt(offset + 2);
        }
        return offset;
    }
}
