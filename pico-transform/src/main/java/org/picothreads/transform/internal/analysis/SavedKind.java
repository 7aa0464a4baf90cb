package org.picothreads.transform.internal.analysis;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.analysis.BasicValue;

/**
 * How a value of one verification type is stored in a local, saved into a Frame and restored from it.
 */
public enum SavedKind {
    INT("Int", "I", Opcodes.ILOAD, Opcodes.ISTORE, 1),
    FLOAT("Float", "F", Opcodes.FLOAD, Opcodes.FSTORE, 1),
    LONG("Long", "J", Opcodes.LLOAD, Opcodes.LSTORE, 2),
    DOUBLE("Double", "D", Opcodes.DLOAD, Opcodes.DSTORE, 2),
    OBJECT("Object", "Ljava/lang/Object;", Opcodes.ALOAD, Opcodes.ASTORE, 1),
    /** A reference known to be null: spilled like an object but never saved, restored as null. */
    NULL("Object", "Ljava/lang/Object;", Opcodes.ALOAD, Opcodes.ASTORE, 1);

    /** Suffix of the Frame push and pop methods. */
    public final String frameMethodSuffix;
    /** Descriptor of the value the Frame method takes or returns. */
    public final String frameDescriptor;
    public final int loadOpcode;
    public final int storeOpcode;
    /** Number of local variable slots the value occupies. */
    public final int size;

    SavedKind(String frameMethodSuffix, String frameDescriptor, int loadOpcode, int storeOpcode, int size) {
        this.frameMethodSuffix = frameMethodSuffix;
        this.frameDescriptor = frameDescriptor;
        this.loadOpcode = loadOpcode;
        this.storeOpcode = storeOpcode;
        this.size = size;
    }

    /** True for kinds saved in the Frame's primitive array. */
    public boolean isPrimitive() {
        return this == INT || this == FLOAT || this == LONG || this == DOUBLE;
    }

    /**
     * The kind of an analysed value, or null when the value cannot be saved at all (an object under
     * construction, a subroutine return address) or is not a value (an unset local).
     */
    public static SavedKind of(BasicValue value) {
        if (value == null || value == BasicValue.UNINITIALIZED_VALUE || value.getType() == null
                || value instanceof UninitializedValue || value == BasicValue.RETURNADDRESS_VALUE) {
            return null;
        }
        Type type = value.getType();
        return switch (type.getSort()) {
            case Type.BOOLEAN, Type.CHAR, Type.BYTE, Type.SHORT, Type.INT -> INT;
            case Type.FLOAT -> FLOAT;
            case Type.LONG -> LONG;
            case Type.DOUBLE -> DOUBLE;
            case Type.ARRAY -> OBJECT;
            case Type.OBJECT -> type.getInternalName().equals("null") ? NULL : OBJECT;
            default -> null;
        };
    }
}
