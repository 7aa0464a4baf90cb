package org.picothreads.transform.internal.analysis;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.BasicValue;
import org.objectweb.asm.tree.analysis.Frame;
import org.objectweb.asm.tree.analysis.Interpreter;

/**
 * A frame that, when a constructor call initializes an {@link UninitializedValue}, replaces every copy of
 * that value in the locals and on the stack with the initialized type, as the JVM's verifier does.
 */
final class InitializationTrackingFrame extends Frame<BasicValue> {
    InitializationTrackingFrame(int numLocals, int maxStack) {
        super(numLocals, maxStack);
    }

    InitializationTrackingFrame(Frame<? extends BasicValue> frame) {
        super(frame);
    }

    @Override
    public void execute(AbstractInsnNode instruction, Interpreter<BasicValue> interpreter) throws AnalyzerException {
        if (instruction.getOpcode() != Opcodes.INVOKESPECIAL || !((MethodInsnNode) instruction).name.equals("<init>")) {
            super.execute(instruction, interpreter);
            return;
        }
        int argumentCount = Type.getArgumentTypes(((MethodInsnNode) instruction).desc).length;
        BasicValue receiver = getStack(getStackSize() - argumentCount - 1);
        super.execute(instruction, interpreter);
        if (receiver instanceof UninitializedValue uninitialized) {
            BasicValue initialized = interpreter.newValue(uninitialized.getType());
            for (int index = 0; index < getLocals(); index++) {
                if (uninitialized.equals(getLocal(index))) {
                    setLocal(index, initialized);
                }
            }
            for (int index = 0; index < getStackSize(); index++) {
                if (uninitialized.equals(getStack(index))) {
                    setStack(index, initialized);
                }
            }
        }
    }
}
