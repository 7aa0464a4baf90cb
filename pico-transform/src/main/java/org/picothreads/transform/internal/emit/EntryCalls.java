package org.picothreads.transform.internal.emit;

import org.objectweb.asm.Handle;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.picothreads.transform.internal.RuntimeNames;

/**
 * Emits rewritten code's calls into the runtime's capture and restore protocol, so that only rewritten classes can
 * reach it (the runtime's {@code ProtocolAccess} decides):
 *
 * <pre>
 * resume:           INVOKEDYNAMIC resume()Frame      [Continuation.link, "Owner.method(desc)"]   (continuation entry)
 * capture:          Stack: receiver or null, site, counts                                 (capture helper)
 *                   INVOKEDYNAMIC capture(Object, int, long)Frame  [Continuation.link, "Owner.method(desc)"]
 * caller token:     Stack: frame or null
 *                   INVOKESTATIC CallerToken.pass(Object)V               (a trivial method: the field is private)
 * </pre>
 *
 * The bootstrap binds the key as a constant once it has checked that the calling class carries the marker listing
 * that method, so the entries cost what a static call costs once linked. A class file before Java 7 cannot hold
 * invokedynamic: {@link #lowerForOldClassFile} turns each linked entry into a call of the checked entry with the
 * class's own lookup, {@code LDC key; INVOKESTATIC MethodHandles.lookup(); INVOKESTATIC Continuation.resumeChecked}
 * (or {@code captureChecked}), which the runtime checks at every call instead of once.
 */
public final class EntryCalls {
    /** The first class file version that may hold invokedynamic (Java 7). */
    private static final int FIRST_VERSION_WITH_INVOKEDYNAMIC = Opcodes.V1_7;
    private static final Handle LINK = new Handle(Opcodes.H_INVOKESTATIC, RuntimeNames.CONTINUATION, RuntimeNames.LINK,
            RuntimeNames.LINK_DESCRIPTOR, false);

    private EntryCalls() {
    }

    /** Pushes the frame the activation of {@code key} must restore, or null. */
    public static AbstractInsnNode resume(String key) {
        return new InvokeDynamicInsnNode(RuntimeNames.RESUME, RuntimeNames.RESUME_DESCRIPTOR, LINK, key);
    }

    /** Takes the resume point and the two counts, and pushes the frame to save the activation of {@code key} into. */
    public static AbstractInsnNode capture(String key) {
        return new InvokeDynamicInsnNode(RuntimeNames.CAPTURE_METHOD, RuntimeNames.CAPTURE_DESCRIPTOR, LINK, key);
    }

    /** Takes the restored frame (or null) and stores it as the caller token. */
    public static AbstractInsnNode passToken() {
        return new MethodInsnNode(Opcodes.INVOKESTATIC, RuntimeNames.CALLER_TOKEN, RuntimeNames.PASS_TOKEN,
                RuntimeNames.PASS_TOKEN_DESCRIPTOR, false);
    }

    /**
     * Takes the restored frame of a continuation and stores it as the caller token of a caller that tests for a
     * capture under way after the call.
     */
    public static AbstractInsnNode passCheckingToken() {
        return new MethodInsnNode(Opcodes.INVOKESTATIC, RuntimeNames.CALLER_TOKEN, RuntimeNames.PASS_CHECKING_TOKEN,
                RuntimeNames.PASS_TOKEN_DESCRIPTOR, false);
    }

    /**
     * In a method of a class file of {@code version}, turns each linked entry into a call of the checked entry with
     * the class's own lookup when the version cannot hold invokedynamic; does nothing otherwise.
     */
    public static void lowerForOldClassFile(MethodNode method, int version) {
        if ((version & 0xFFFF) >= FIRST_VERSION_WITH_INVOKEDYNAMIC) {
            return;
        }
        for (AbstractInsnNode instruction : method.instructions.toArray()) {
            if (!(instruction instanceof InvokeDynamicInsnNode dynamic) || !dynamic.bsm.equals(LINK)) {
                continue;
            }
            boolean resume = dynamic.name.equals(RuntimeNames.RESUME);
            InsnList checked = new InsnList();
            // Stack: (resume) nothing, (capture) point, references, primitives
            checked.add(new LdcInsnNode(dynamic.bsmArgs[0]));
            checked.add(new MethodInsnNode(Opcodes.INVOKESTATIC, RuntimeNames.METHOD_HANDLES, RuntimeNames.LOOKUP,
                    RuntimeNames.LOOKUP_DESCRIPTOR, false));
            // Stack: ..., key, lookup
            checked.add(new MethodInsnNode(Opcodes.INVOKESTATIC, RuntimeNames.CONTINUATION,
                    resume ? RuntimeNames.RESUME_CHECKED : RuntimeNames.CAPTURE_CHECKED,
                    resume ? RuntimeNames.RESUME_CHECKED_DESCRIPTOR : RuntimeNames.CAPTURE_CHECKED_DESCRIPTOR, false));
            method.instructions.insertBefore(dynamic, checked);
            method.instructions.remove(dynamic);
        }
    }
}
