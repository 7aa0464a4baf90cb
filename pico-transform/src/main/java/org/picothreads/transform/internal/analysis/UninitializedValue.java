package org.picothreads.transform.internal.analysis;

import org.objectweb.asm.Type;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.analysis.BasicValue;

/** A reference created by a NEW instruction whose constructor has not run yet. */
public final class UninitializedValue extends BasicValue {
    private final TypeInsnNode creation;

    UninitializedValue(Type type, TypeInsnNode creation) {
        super(type);
        this.creation = creation;
    }

    /** The NEW instruction that created the object. */
    public TypeInsnNode creation() {
        return creation;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof UninitializedValue value && value.creation == creation;
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(creation);
    }
}
