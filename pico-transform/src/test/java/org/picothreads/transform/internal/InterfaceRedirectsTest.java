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
    void a_close_through_channel_closeable_or_auto_closeable_goes_to_the_runtime_s_transparent_forwarder()
            throws Exception {
        ClassHierarchy hierarchy = new ClassHierarchy(List.of());
        String ioCalls = "org/picothreads/runtime/internal/IoCalls";
        Redirects.Redirect throughChannel = new Redirects.Redirect(ioCalls, "close", "(Ljava/nio/channels/Channel;)V",
                false);
        assertEquals(throughChannel, table.forCall(Opcodes.INVOKEINTERFACE, "java/nio/channels/Channel", "close", "()V",
                hierarchy));
        // the channel interfaces a socket channel implements each have an entry of their own
        assertEquals(throughChannel, table.forCall(Opcodes.INVOKEINTERFACE, "java/nio/channels/ByteChannel", "close",
                "()V", hierarchy));
        assertEquals(new Redirects.Redirect(ioCalls, "close", "(Ljava/io/Closeable;)V", false),
                table.forCall(Opcodes.INVOKEINTERFACE, "java/io/Closeable", "close", "()V", hierarchy));
        assertEquals(new Redirects.Redirect(ioCalls, "close", "(Ljava/lang/AutoCloseable;)V", false),
                table.forCall(Opcodes.INVOKEINTERFACE, "java/lang/AutoCloseable", "close", "()V", hierarchy));
        // a transparent entry is reached only through its own interface: a Stream or a DirectoryStream, which no
        // channel is, is closed as before, and the analysis judges that call as before
        assertNull(table.forCall(Opcodes.INVOKEINTERFACE, "java/util/stream/Stream", "close", "()V", hierarchy));
        assertNull(table.forCall(Opcodes.INVOKEINTERFACE, "java/nio/file/DirectoryStream", "close", "()V",
                hierarchy));
        assertNull(table.forCall(Opcodes.INVOKEINTERFACE, "java/nio/channels/SeekableByteChannel", "close", "()V",
                hierarchy));
        // ScheduledExecutorService extends ExecutorService, whose own entry is more specific than AutoCloseable's
        assertEquals("org/picothreads/runtime/concurrent/ConcurrentCalls", table.forCall(Opcodes.INVOKEINTERFACE,
                "java/util/concurrent/ScheduledExecutorService", "close", "()V", hierarchy).owner());
        // through a channel class, the entry of AbstractInterruptibleChannel's close; through Writer, Writer's
        assertEquals(new Redirects.Redirect("org/picothreads/net/internal/BlockingChannels", "close",
                "(Ljava/nio/channels/spi/AbstractInterruptibleChannel;)V", false),
                table.forCall(Opcodes.INVOKEVIRTUAL, "java/nio/channels/FileChannel", "close", "()V", hierarchy));
        assertEquals(new Redirects.Redirect(ioCalls, "close", "(Ljava/io/Writer;)V", true),
                table.forCall(Opcodes.INVOKEVIRTUAL, "java/io/StringWriter", "close", "()V", hierarchy));
        // the analysis judges the interface call in the forwarder's place (for the channel interfaces, Channel's)
        assertEquals("java/io/Closeable.close()V",
                table.transparentOriginal(ioCalls, "close", "(Ljava/io/Closeable;)V"));
        assertEquals("java/nio/channels/Channel.close()V", table.transparentOriginal(ioCalls, "close",
                "(Ljava/nio/channels/Channel;)V"));
        assertNull(table.transparentOriginal(ioCalls, "close", "(Ljava/io/Writer;)V"));
        // the forwarders are the runtime's, so a program without pico-net has them too
        assertEquals(throughChannel, Redirects.table(false).forCall(Opcodes.INVOKEINTERFACE,
                "java/nio/channels/Channel", "close", "()V", hierarchy));
    }

    @Test
    void the_table_without_pico_net_has_no_interface_entry_for_channels() throws Exception {
        ClassHierarchy hierarchy = new ClassHierarchy(List.of());
        assertNull(Redirects.table(false).forCall(Opcodes.INVOKEINTERFACE, "java/nio/channels/ReadableByteChannel",
                "read", READ, hierarchy));
    }

    @Test
    void the_streams_of_a_socket_go_to_the_transparent_forwarder_only_through_socket_itself() throws Exception {
        ClassHierarchy hierarchy = new ClassHierarchy(List.of());
        Redirects.Redirect forwarder = table.forCall(Opcodes.INVOKEVIRTUAL, "java/net/Socket", "getInputStream",
                "()Ljava/io/InputStream;", hierarchy);
        assertEquals(new Redirects.Redirect("org/picothreads/net/ChannelCalls", "socketInputStream",
                "(Ljava/net/Socket;)Ljava/io/InputStream;", false), forwarder);
        assertEquals("java/net/Socket.getInputStream()Ljava/io/InputStream;",
                table.transparentOriginal(forwarder.owner(), forwarder.name(), forwarder.descriptor()));
        // a super call, and a call through a subclass (pico-net's socket, or the program's own), are left alone
        assertNull(table.forCall(Opcodes.INVOKESPECIAL, "java/net/Socket", "getInputStream",
                "()Ljava/io/InputStream;", hierarchy));
        assertNull(table.forCall(Opcodes.INVOKEVIRTUAL, "javax/net/ssl/SSLSocket", "getInputStream",
                "()Ljava/io/InputStream;", hierarchy));
    }
}
