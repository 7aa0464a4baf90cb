package org.picothreads.net.internal;

import java.nio.ByteBuffer;

/**
 * The direct buffer a socket write copies its bytes into, one step at a time, on their way to the channel: one per
 * platform thread, so one per carrier, shared by the PicoThreads running there one at a time. A step is copied and
 * written before its thread can suspend (and so before it can move to another carrier), and a write that waits
 * copies its next step again afterwards, so no socket keeps a buffer of its own and the channel writes from native
 * memory without a copy of its own. This class is not rewritten, so its ThreadLocal is the JDK's, one per platform
 * thread: a PicoThread gets its carrier's.
 */
public final class TransferBuffers {
    /** Bytes in one step: a write of up to this many bytes is one system call when the send buffer has room. */
    private static final int STEP_SIZE = 64 * 1024;

    private static final ThreadLocal<ByteBuffer> BUFFERS = ThreadLocal.withInitial(
            () -> ByteBuffer.allocateDirect(STEP_SIZE));

    private TransferBuffers() {
    }

    /** The calling platform thread's buffer (its carrier's for a PicoThread), cleared. */
    public static ByteBuffer forCurrentThread() {
        return BUFFERS.get().clear();
    }
}
