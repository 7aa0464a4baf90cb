package org.picothreads.net.internal;

import java.nio.ByteBuffer;
import org.picothreads.runtime.internal.Parking;

/**
 * The direct buffer a socket write copies its bytes into, one step at a time, on their way to the channel: one for
 * the carrier, shared by every PicoThread on it, and one per platform thread. A step is copied and written before
 * its thread can suspend, and a write that waits copies its next step again afterwards, so no socket keeps a buffer
 * of its own and the channel writes from native memory without a copy of its own. This class is not rewritten, so
 * its ThreadLocal is the JDK's, one per platform thread.
 */
public final class TransferBuffers {
    /** Bytes in one step: a write of up to this many bytes is one system call when the send buffer has room. */
    private static final int STEP_SIZE = 64 * 1024;

    private static final ThreadLocal<ByteBuffer> BUFFERS = ThreadLocal.withInitial(
            () -> ByteBuffer.allocateDirect(STEP_SIZE));
    /** The carrier's buffer; only the carrier thread uses it, PicoThreads running there one at a time. */
    private static ByteBuffer carrierBuffer;

    private TransferBuffers() {
    }

    /** The calling thread's buffer, cleared. */
    public static ByteBuffer forCurrentThread() {
        ByteBuffer buffer;
        if (Parking.onPicoThread()) {
            buffer = carrierBuffer;
            if (buffer == null) {
                buffer = ByteBuffer.allocateDirect(STEP_SIZE);
                carrierBuffer = buffer;
            }
        } else {
            buffer = BUFFERS.get();
        }
        return buffer.clear();
    }
}
