package org.picothreads.net.internal;

import java.net.DatagramPacket;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * How many bytes a receive into a {@link DatagramPacket} may fill, as the JDK's receive keeps it.
 *
 * <p>A packet has two lengths: the one {@link DatagramPacket#getLength()} answers, and the size of its buffer, which
 * its constructor, {@code setData} and {@code setLength} set and which bounds what a receive stores. The JDK's receive
 * sets only the first to the datagram's size, so a packet received into again takes a datagram as long as its buffer
 * (the loop {@code while (true) { socket.receive(packet); ... }} reads every datagram whole). pico-net's receive can
 * set the length only through {@code setLength}, which sets both; the buffer's size is private to java.base. So each
 * packet a receive shortened is remembered here with what the receive left in it: when the packet still holds that
 * array, offset and length at its next receive, nothing changed them and its buffer is the one remembered; otherwise
 * the program set them, and its buffer is what {@code getLength()} says, as on the JDK.
 *
 * <p>What remains different: a program that sets a received packet's length to exactly the length the receive left
 * (with {@code setLength} or {@code setData} on the same array and offset) gets a buffer of its earlier size, where
 * the JDK's would have shrunk to that length.
 */
public final class PacketCapacities {
    /** What a receive left in a packet whose buffer it did not fill; weak, so that a dropped packet is forgotten. */
    private static final Map<DatagramPacket, Received> SHORTENED = Collections.synchronizedMap(new WeakHashMap<>());

    private PacketCapacities() {
    }

    /** What one receive left in a packet: its array, offset and length, and the size of its buffer. */
    private record Received(byte[] data, int offset, int length, int capacity) {
    }

    /** The bytes a receive into {@code packet} may fill, from its offset on. */
    public static int of(DatagramPacket packet) {
        Received received = SHORTENED.get(packet);
        if (received != null && received.data == packet.getData() && received.offset == packet.getOffset()
                && received.length == packet.getLength()) {
            return received.capacity;
        }
        return packet.getLength();
    }

    /**
     * Sets the length of {@code packet}, whose buffer held {@code capacity} bytes, to the {@code length} of the
     * datagram just received into it, and remembers the buffer's size for its next receive.
     */
    public static void received(DatagramPacket packet, int capacity, int length) {
        packet.setLength(length);
        if (length < capacity) {
            SHORTENED.put(packet, new Received(packet.getData(), packet.getOffset(), length, capacity));
        } else {
            SHORTENED.remove(packet);
        }
    }
}
