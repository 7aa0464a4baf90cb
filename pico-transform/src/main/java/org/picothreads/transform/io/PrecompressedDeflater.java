package org.picothreads.transform.io;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.zip.Deflater;

/**
 * The compressor of a zip stream that writes entries compressed beforehand: given each entry's bytes and their
 * compressed form ({@link #compress}, as the zip stream's own compressor would make it), it takes the bytes the stream
 * hands it and gives back the compressed form, so that the stream writes the very jar it would have written, headers,
 * sizes and checksums included, while the compressing ran elsewhere and in parallel.
 *
 * <p>It answers only the calls a zip stream makes for a deflated entry (its input once, finish, deflate until
 * finished, the byte counts, reset); any other call, or input that is not the expected entry's bytes, fails the write
 * rather than write other bytes.
 */
final class PrecompressedDeflater extends Deflater {
    private byte[] input;
    private byte[] compressed;
    private long bytesRead;
    private int emitted;
    private boolean finishing;

    PrecompressedDeflater() {
        super(DEFAULT_COMPRESSION, true);
    }

    /**
     * The bytes compressed as a zip stream's compressor compresses an entry: raw deflate at the default level, all the
     * input given, deflated without flushing until it needs more, then finished.
     */
    static byte[] compress(byte[] bytes) {
        Deflater deflater = new Deflater(DEFAULT_COMPRESSION, true);
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length / 2 + 64);
            byte[] buffer = new byte[8192];
            if (bytes.length > 0) {
                deflater.setInput(bytes, 0, bytes.length);
                while (!deflater.needsInput()) {
                    out.write(buffer, 0, deflater.deflate(buffer, 0, buffer.length));
                }
            }
            deflater.finish();
            while (!deflater.finished()) {
                out.write(buffer, 0, deflater.deflate(buffer, 0, buffer.length));
            }
            return out.toByteArray();
        } finally {
            deflater.end();
        }
    }

    /** The next entry: its bytes, which the stream hands over, and their compressed form, which it gets back. */
    void expect(byte[] entryBytes, byte[] entryCompressed) {
        input = entryBytes;
        compressed = entryCompressed;
        bytesRead = 0;
        emitted = 0;
        finishing = false;
    }

    @Override
    public void setInput(byte[] bytes, int offset, int length) {
        if (bytes != input || compressed == null || finishing || offset != bytesRead
                || bytesRead + length > input.length) {
            throw new IllegalStateException("the zip stream wrote other bytes than the entry's it was given");
        }
        bytesRead += length;
    }

    @Override
    public void setInput(byte[] bytes) {
        setInput(bytes, 0, bytes.length);
    }

    @Override
    public void setInput(ByteBuffer bytes) {
        throw unexpected();
    }

    @Override
    public boolean needsInput() {
        return true;
    }

    @Override
    public void finish() {
        if (compressed == null || bytesRead != input.length) {
            throw new IllegalStateException("the zip stream finished an entry before writing all its bytes");
        }
        finishing = true;
    }

    @Override
    public boolean finished() {
        return finishing && emitted == compressed.length;
    }

    @Override
    public int deflate(byte[] output, int offset, int length, int flush) {
        if (!finishing) {
            return 0;
        }
        int count = Math.min(length, compressed.length - emitted);
        System.arraycopy(compressed, emitted, output, offset, count);
        emitted += count;
        return count;
    }

    @Override
    public int deflate(byte[] output, int offset, int length) {
        return deflate(output, offset, length, NO_FLUSH);
    }

    @Override
    public int deflate(byte[] output) {
        return deflate(output, 0, output.length, NO_FLUSH);
    }

    @Override
    public int deflate(ByteBuffer output) {
        throw unexpected();
    }

    @Override
    public int deflate(ByteBuffer output, int flush) {
        throw unexpected();
    }

    @Override
    public long getBytesRead() {
        return bytesRead;
    }

    @Override
    public long getBytesWritten() {
        return emitted;
    }

    @Override
    public int getTotalIn() {
        return (int) bytesRead;
    }

    @Override
    public int getTotalOut() {
        return emitted;
    }

    @Override
    public void reset() {
        if (!finished()) {
            throw new IllegalStateException("the zip stream ended an entry before its compressed bytes were written");
        }
        expect(null, null);
    }

    @Override
    public void setLevel(int level) {
        throw unexpected();
    }

    @Override
    public void setStrategy(int strategy) {
        throw unexpected();
    }

    @Override
    public void setDictionary(byte[] dictionary, int offset, int length) {
        throw unexpected();
    }

    private static UnsupportedOperationException unexpected() {
        return new UnsupportedOperationException("not a call a zip stream makes for a deflated entry");
    }
}
