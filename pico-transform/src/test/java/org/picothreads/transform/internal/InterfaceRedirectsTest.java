package org.picothreads.transform.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.Opcodes;
import org.picothreads.transform.internal.hierarchy.ClassHierarchy;

/**
 * The table's {@code interface} entries: a call through the interface or an interface extending it goes to the runtime
 * method; a call through a class that implements the interface does not, and the class's own entry still wins.
 */
class InterfaceRedirectsTest {
    private static final String READ = "(Ljava/nio/ByteBuffer;)I";
    private static final String GENERIC_READ = "(Ljava/nio/channels/ReadableByteChannel;Ljava/nio/ByteBuffer;)I";

    private final Redirects table = Redirects.table(true);

    @Test
    void a_read_through_readable_byte_channel_or_byte_channel_goes_to_the_interface_entry() throws Exception {
        ClassHierarchy hierarchy = new ClassHierarchy(List.of());
        for (String owner : List.of("java/nio/channels/ReadableByteChannel", "java/nio/channels/ByteChannel",
                "java/nio/channels/SeekableByteChannel")) {
            Redirects.Redirect redirect = table.forCall(Opcodes.INVOKEINTERFACE, owner, "read", READ, hierarchy);
            assertEquals(new Redirects.Redirect("org/picothreads/net/ChannelCalls", "read", GENERIC_READ, true),
                    redirect, owner);
        }
    }

    @Test
    void a_read_through_a_channel_class_goes_to_its_own_entry_or_nowhere() throws Exception {
        ClassHierarchy hierarchy = new ClassHierarchy(List.of());
        assertEquals(new Redirects.Redirect("org/picothreads/net/ChannelCalls", "read",
                "(Ljava/nio/channels/SocketChannel;Ljava/nio/ByteBuffer;)I", true),
                table.forCall(Opcodes.INVOKEVIRTUAL, "java/nio/channels/SocketChannel", "read", READ, hierarchy));
        assertNull(table.forCall(Opcodes.INVOKEVIRTUAL, "java/nio/channels/FileChannel", "read", READ, hierarchy));
        assertNull(table.forCall(Opcodes.INVOKEVIRTUAL, "java/nio/channels/Pipe$SourceChannel", "read", READ,
                hierarchy));
    }

    @Test
    void a_close_through_channel_or_an_interface_extending_it_goes_to_the_interface_entry_and_through_closeable_not()
            throws Exception {
        ClassHierarchy hierarchy = new ClassHierarchy(List.of());
        Redirects.Redirect close = new Redirects.Redirect("org/picothreads/net/ChannelCalls", "close",
                "(Ljava/nio/channels/Channel;)V", false);
        assertEquals(close, table.forCall(Opcodes.INVOKEINTERFACE, "java/nio/channels/Channel", "close", "()V",
                hierarchy));
        assertEquals(close, table.forCall(Opcodes.INVOKEINTERFACE, "java/nio/channels/ByteChannel", "close", "()V",
                hierarchy));
        assertNull(table.forCall(Opcodes.INVOKEINTERFACE, "java/io/Closeable", "close", "()V", hierarchy));
        // through a channel class, the entry of AbstractInterruptibleChannel's close
        assertEquals(new Redirects.Redirect("org/picothreads/net/internal/BlockingChannels", "close",
                "(Ljava/nio/channels/spi/AbstractInterruptibleChannel;)V", false),
                table.forCall(Opcodes.INVOKEVIRTUAL, "java/nio/channels/FileChannel", "close", "()V", hierarchy));
    }

    @Test
    void the_table_without_pico_net_has_no_interface_entry_for_channels() throws Exception {
        ClassHierarchy hierarchy = new ClassHierarchy(List.of());
        assertNull(Redirects.table(false).forCall(Opcodes.INVOKEINTERFACE, "java/nio/channels/ReadableByteChannel",
                "read", READ, hierarchy));
    }
}
