package org.picothreads.transform.internal.analysis;

import java.util.List;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.BasicValue;
import org.objectweb.asm.tree.analysis.SimpleVerifier;
import org.picothreads.transform.internal.RuntimeNames;
import org.picothreads.transform.internal.hierarchy.ClassHierarchy;

/**
 * ASM's {@link SimpleVerifier} answering from a {@link ClassHierarchy} instead of loading classes, and
 * marking each object created by NEW as an {@link UninitializedValue} until its constructor runs. Like the
 * JVM's verifier it treats an interface type as accepting any reference.
 */
final class HierarchyVerifier extends SimpleVerifier {
    private static final Type NULL_TYPE = Type.getObjectType("null");

    private final ClassHierarchy hierarchy;

    HierarchyVerifier(ClassHierarchy hierarchy, Type currentClass, Type currentSuperClass,
            List<Type> currentInterfaces, boolean isInterface) {
        super(RuntimeNames.ASM_API, currentClass, currentSuperClass, currentInterfaces, isInterface);
        this.hierarchy = hierarchy;
    }

    @Override
    public BasicValue newOperation(AbstractInsnNode instruction) throws AnalyzerException {
        if (instruction.getOpcode() == Opcodes.NEW) {
            return new UninitializedValue(Type.getObjectType(((TypeInsnNode) instruction).desc),
                    (TypeInsnNode) instruction);
        }
        return super.newOperation(instruction);
    }

    @Override
    protected boolean isSubTypeOf(BasicValue value, BasicValue expected) {
        Type expectedType = expected.getType();
        Type type = value.getType();
        switch (expectedType.getSort()) {
            case Type.INT, Type.FLOAT, Type.LONG, Type.DOUBLE:
                return type.equals(expectedType);
            case Type.ARRAY, Type.OBJECT:
                if (type.equals(NULL_TYPE)) {
                    return true;
                }
                if (type.getSort() == Type.OBJECT || type.getSort() == Type.ARRAY) {
                    return isAssignableFrom(expectedType, type)
                            || expectedType.getSort() == Type.OBJECT && isInterface(expectedType);
                }
                return false;
            default:
                throw new AssertionError("unexpected expected type " + expectedType);
        }
    }

    @Override
    protected boolean isInterface(Type type) {
        return type.getSort() == Type.OBJECT && hierarchy.require(type.getInternalName()).isInterface();
    }

    @Override
    protected Type getSuperClass(Type type) {
        if (type.getSort() == Type.ARRAY) {
            return Type.getObjectType(RuntimeNames.OBJECT);
        }
        String superName = hierarchy.require(type.getInternalName()).superName();
        return superName == null ? null : Type.getObjectType(superName);
    }

    @Override
    protected boolean isAssignableFrom(Type type, Type other) {
        if (type.equals(other)) {
            return true;
        }
        if (type.getSort() == Type.OBJECT && type.getInternalName().equals(RuntimeNames.OBJECT)) {
            return other.getSort() == Type.OBJECT || other.getSort() == Type.ARRAY;
        }
        if (type.getSort() == Type.ARRAY) {
            if (other.getSort() != Type.ARRAY) {
                return false;
            }
            Type element = Type.getType(type.getDescriptor().substring(1));
            Type otherElement = Type.getType(other.getDescriptor().substring(1));
            if (element.getSort() == Type.OBJECT || element.getSort() == Type.ARRAY) {
                return (otherElement.getSort() == Type.OBJECT || otherElement.getSort() == Type.ARRAY)
                        && isAssignableFrom(element, otherElement);
            }
            return element.equals(otherElement);
        }
        if (other.getSort() == Type.ARRAY) {
            String name = type.getInternalName();
            return name.equals("java/lang/Cloneable") || name.equals("java/io/Serializable");
        }
        if (other.getSort() != Type.OBJECT || type.getSort() != Type.OBJECT) {
            return false;
        }
        return hierarchy.isSubtypeOfStrict(other.getInternalName(), type.getInternalName());
    }

    @Override
    protected Class<?> getClass(Type type) {
        throw new UnsupportedOperationException("the transformer never loads " + type.getClassName());
    }
}
