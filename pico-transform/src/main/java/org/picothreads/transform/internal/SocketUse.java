package org.picothreads.transform.internal;

import java.util.Collection;
import java.util.Set;
import org.objectweb.asm.ClassReader;
import org.picothreads.transform.ClassInput;

/**
 * Finds a class that refers to the JDK's socket types, which only pico-net can make suspend: without pico-net such a
 * class keeps blocking sockets, and the agent and the Maven plugin say so (through
 * {@link org.picothreads.transform.PicoTransformer#socketUserWithoutPicoNet}).
 */
public final class SocketUse {
    /** The JDK types whose blocking calls pico-net stands in for. */
    private static final Set<String> SOCKET_TYPES = Set.of("java/net/Socket", "java/net/ServerSocket",
            "java/net/DatagramSocket", "java/nio/channels/SocketChannel", "java/nio/channels/ServerSocketChannel",
            "java/nio/channels/DatagramChannel");
    /** The tag of a CONSTANT_Class entry of the constant pool (JVMS 4.4.1). */
    private static final int CONSTANT_CLASS = 7;

    private SocketUse() {
    }

    /** The binary name of the first class that refers to a socket type, or null when none does. */
    public static String firstUser(Collection<ClassInput> classes) {
        for (ClassInput input : classes) {
            try {
                ClassReader reader = new ClassReader(input.bytes());
                char[] buffer = new char[reader.getMaxStringLength()];
                for (int item = 1; item < reader.getItemCount(); item++) {
                    int offset = reader.getItem(item);
                    if (offset > 0 && reader.readByte(offset - 1) == CONSTANT_CLASS
                            && SOCKET_TYPES.contains(reader.readUTF8(offset, buffer))) {
                        return reader.getClassName().replace('/', '.');
                    }
                }
            } catch (RuntimeException notAClass) {
                // The transformer names a class file it cannot read; it is no socket user.
            }
        }
        return null;
    }
}
