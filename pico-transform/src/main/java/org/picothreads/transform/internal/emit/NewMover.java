package org.picothreads.transform.internal.emit;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.objectweb.asm.tree.analysis.BasicValue;
import org.objectweb.asm.tree.analysis.Frame;
import org.picothreads.transform.internal.analysis.MethodFlow;
import org.picothreads.transform.internal.analysis.SavedKind;
import org.picothreads.transform.internal.analysis.UninitializedValue;

/**
 * Moves object creation after the evaluation of the constructor's arguments where an argument can
 * suspend, because an object under construction cannot be saved in a frame:
 *
 * <pre>
 *   NEW Foo; DUP; &lt;arguments, may suspend&gt;; INVOKESPECIAL Foo.&lt;init&gt;
 * becomes
 *   &lt;arguments, may suspend&gt;; store arguments; NEW Foo; DUP; load arguments; INVOKESPECIAL Foo.&lt;init&gt;
 * </pre>
 *
 * The only observable difference is that Foo's class initializer, if it has not run yet, now runs after
 * the arguments are evaluated rather than before. Creations that do not follow javac's NEW, DUP shape are
 * left alone, and the call sites that see them are pinned instead.
 */
public final class NewMover {
    private record Move(TypeInsnNode creation, AbstractInsnNode duplicate, MethodInsnNode constructorCall,
            List<BasicValue> arguments) {
    }

    private NewMover() {
    }

    /** Moves the creations whose objects are on the stack at any of the call sites; true when it moved any. */
    public static boolean moveCreations(MethodNode method, MethodFlow flow, List<MethodInsnNode> callSites) {
        Set<TypeInsnNode> creations = new LinkedHashSet<>();
        for (MethodInsnNode site : callSites) {
            Frame<BasicValue> frame = flow.frameBefore(site);
            for (int index = 0; frame != null && index < frame.getStackSize(); index++) {
                if (frame.getStack(index) instanceof UninitializedValue uninitialized) {
                    creations.add(uninitialized.creation());
                }
            }
        }
        List<Move> moves = new ArrayList<>();
        for (TypeInsnNode creation : creations) {
            Move move = planMove(method, flow, creation);
            if (move != null) {
                moves.add(move);
            }
        }
        for (Move move : moves) {
            apply(method, move);
        }
        return !moves.isEmpty();
    }

    private static Move planMove(MethodNode method, MethodFlow flow, TypeInsnNode creation) {
        AbstractInsnNode duplicate = creation.getNext();
        if (duplicate == null || duplicate.getOpcode() != Opcodes.DUP) {
            return null;
        }
        for (AbstractInsnNode instruction = duplicate.getNext(); instruction != null; instruction = instruction.getNext()) {
            if (instruction.getOpcode() != Opcodes.INVOKESPECIAL
                    || !((MethodInsnNode) instruction).name.equals("<init>")) {
                continue;
            }
            MethodInsnNode call = (MethodInsnNode) instruction;
            Frame<BasicValue> frame = flow.frameBefore(call);
            if (frame == null) {
                continue;
            }
            int argumentCount = Type.getArgumentTypes(call.desc).length;
            int receiverIndex = frame.getStackSize() - argumentCount - 1;
            if (receiverIndex < 1 || !isCreatedBy(frame.getStack(receiverIndex), creation)) {
                continue;
            }
            if (!isCreatedBy(frame.getStack(receiverIndex - 1), creation)) {
                return null;
            }
            List<BasicValue> arguments = new ArrayList<>();
            for (int index = receiverIndex + 1; index < frame.getStackSize(); index++) {
                if (SavedKind.of(frame.getStack(index)) == null) {
                    return null;
                }
                arguments.add(frame.getStack(index));
            }
            return new Move(creation, duplicate, call, arguments);
        }
        return null;
    }

    private static boolean isCreatedBy(BasicValue value, TypeInsnNode creation) {
        return value instanceof UninitializedValue uninitialized && uninitialized.creation() == creation;
    }

    private static void apply(MethodNode method, Move move) {
        int[] slots = new int[move.arguments().size()];
        for (int index = 0; index < slots.length; index++) {
            slots[index] = method.maxLocals;
            method.maxLocals += SavedKind.of(move.arguments().get(index)).size;
        }
        InsnList code = new InsnList();
        // Stack: ..., arguments
        for (int index = slots.length - 1; index >= 0; index--) {
            code.add(new VarInsnNode(SavedKind.of(move.arguments().get(index)).storeOpcode, slots[index]));
        }
        // Stack: ...
        code.add(new TypeInsnNode(Opcodes.NEW, move.creation().desc));
        code.add(new InsnNode(Opcodes.DUP));
        // Stack: ..., uninitialized, uninitialized
        for (int index = 0; index < slots.length; index++) {
            code.add(new VarInsnNode(SavedKind.of(move.arguments().get(index)).loadOpcode, slots[index]));
        }
        // Stack: ..., uninitialized, uninitialized, arguments
        method.instructions.insertBefore(move.constructorCall(), code);
        method.instructions.remove(move.creation());
        method.instructions.remove(move.duplicate());
    }
}
