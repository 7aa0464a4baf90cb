package org.picothreads.net.io;

import java.io.File;
import java.io.FileNotFoundException;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UnsupportedEncodingException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.charset.Charset;
import java.util.Formatter;
import java.util.Locale;
import java.util.Objects;
import org.picothreads.runtime.internal.MonitorHome;
import org.picothreads.runtime.internal.Monitors;

/**
 * The PrintStream that rewritten code creates: printing, encoding (a {@link PicoOutputStreamWriter} over this
 * stream, as the JDK's), formatting, the error flag and automatic flushing are its own, over the inherited
 * {@code out}, so that a write suspending below it is captured through it. The superclass's own writers and their
 * 8 KB buffers are allocated but never used.
 */
public class PicoPrintStream extends PrintStream implements MonitorHome {
    /** {@code PrintStream.charset()} (JDK 18), to encode with the charset the superclass chose; null on JDK 17. */
    private static final MethodHandle CHARSET = charsetAccessor();

    /** This stream's runtime monitor, kept here instead of in the runtime's tables (see {@link MonitorHome}). */
    private final Monitors.Monitor runtimeMonitor = Monitors.newHomedMonitor();
    private final boolean autoFlush;
    private boolean trouble;
    /** Encodes text into bytes written to this stream; it keeps a pending high surrogate between prints. */
    private PicoOutputStreamWriter characters;
    /** True once close has started, since closing the encoder closes this stream again. */
    private boolean closing;

    /** As {@link PrintStream#PrintStream(OutputStream)}. */
    public PicoPrintStream(OutputStream out) {
        this(out, false);
    }

    /** As {@link PrintStream#PrintStream(OutputStream, boolean)}. */
    public PicoPrintStream(OutputStream out, boolean autoFlush) {
        super(out, autoFlush);
        this.autoFlush = autoFlush;
        this.characters = new PicoOutputStreamWriter(this, chosenCharset(this, Charset.defaultCharset()));
    }

    /** As {@link PrintStream#PrintStream(OutputStream, boolean, String)}. */
    public PicoPrintStream(OutputStream out, boolean autoFlush, String encoding) throws UnsupportedEncodingException {
        super(out, autoFlush, encoding);
        this.autoFlush = autoFlush;
        this.characters = new PicoOutputStreamWriter(this, PicoPrintWriter.charsetNamed(encoding));
    }

    /** As {@link PrintStream#PrintStream(OutputStream, boolean, Charset)}. */
    public PicoPrintStream(OutputStream out, boolean autoFlush, Charset charset) {
        super(out, autoFlush, charset);
        this.autoFlush = autoFlush;
        this.characters = new PicoOutputStreamWriter(this, charset);
    }

    /** As {@link PrintStream#PrintStream(String)}. */
    public PicoPrintStream(String fileName) throws FileNotFoundException {
        this(new FileOutputStream(fileName), false);
    }

    /** As {@link PrintStream#PrintStream(String, String)}. */
    public PicoPrintStream(String fileName, String charsetName) throws FileNotFoundException,
            UnsupportedEncodingException {
        this(PicoPrintWriter.charsetNamed(charsetName), new File(fileName));
    }

    /** As {@link PrintStream#PrintStream(String, Charset)}. */
    public PicoPrintStream(String fileName, Charset charset) throws IOException {
        this(Objects.requireNonNull(charset, "charset"), new File(fileName));
    }

    /** As {@link PrintStream#PrintStream(File)}. */
    public PicoPrintStream(File file) throws FileNotFoundException {
        this(new FileOutputStream(file), false);
    }

    /** As {@link PrintStream#PrintStream(File, String)}. */
    public PicoPrintStream(File file, String charsetName) throws FileNotFoundException, UnsupportedEncodingException {
        this(PicoPrintWriter.charsetNamed(charsetName), file);
    }

    /** As {@link PrintStream#PrintStream(File, Charset)}. */
    public PicoPrintStream(File file, Charset charset) throws IOException {
        this(Objects.requireNonNull(charset, "charset"), file);
    }

    private PicoPrintStream(Charset charset, File file) throws FileNotFoundException {
        this(new FileOutputStream(file), false, charset);
    }

    private static MethodHandle charsetAccessor() {
        try {
            return MethodHandles.publicLookup().findVirtual(PrintStream.class, "charset",
                    MethodType.methodType(Charset.class));
        } catch (NoSuchMethodException | IllegalAccessException absent) {
            return null;
        }
    }

    private static Charset chosenCharset(PrintStream stream, Charset fallback) {
        if (CHARSET == null) {
            return fallback;
        }
        try {
            return (Charset) CHARSET.invoke(stream);
        } catch (Throwable impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    private void ensureOpen() throws IOException {
        if (out == null) {
            throw new IOException("Stream closed");
        }
    }

    @Override
    public void flush() {
        synchronized (this) {
            try {
                ensureOpen();
                out.flush();
            } catch (IOException failure) {
                trouble = true;
            }
        }
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closing) {
                return;
            }
            closing = true;
            try {
                characters.close();
                out.close();
            } catch (IOException failure) {
                trouble = true;
            }
            characters = null;
            out = null;
        }
    }

    @Override
    public boolean checkError() {
        if (out != null) {
            flush();
        }
        if (out instanceof PrintStream stream) {
            return stream.checkError();
        }
        return trouble;
    }

    @Override
    protected void setError() {
        trouble = true;
    }

    @Override
    protected void clearError() {
        trouble = false;
    }

    @Override
    public void write(int value) {
        try {
            synchronized (this) {
                ensureOpen();
                out.write(value);
                if (value == '\n' && autoFlush) {
                    out.flush();
                }
            }
        } catch (InterruptedIOException interrupted) {
            Thread.currentThread().interrupt();
        } catch (IOException failure) {
            trouble = true;
        }
    }

    @Override
    public void write(byte[] bytes, int offset, int length) {
        try {
            synchronized (this) {
                ensureOpen();
                out.write(bytes, offset, length);
                if (autoFlush) {
                    out.flush();
                }
            }
        } catch (InterruptedIOException interrupted) {
            Thread.currentThread().interrupt();
        } catch (IOException failure) {
            trouble = true;
        }
    }

    @Override
    public void write(byte[] bytes) throws IOException {
        write(bytes, 0, bytes.length);
    }

    @Override
    public void writeBytes(byte[] bytes) {
        write(bytes, 0, bytes.length);
    }

    private void writeText(String text) {
        try {
            synchronized (this) {
                ensureOpen();
                characters.write(text);
                characters.flushBuffer();
                if (autoFlush && text.indexOf('\n') >= 0) {
                    out.flush();
                }
            }
        } catch (InterruptedIOException interrupted) {
            Thread.currentThread().interrupt();
        } catch (IOException failure) {
            trouble = true;
        }
    }

    private void writeText(char[] text) {
        try {
            synchronized (this) {
                ensureOpen();
                characters.write(text);
                characters.flushBuffer();
                if (autoFlush) {
                    for (char character : text) {
                        if (character == '\n') {
                            out.flush();
                            break;
                        }
                    }
                }
            }
        } catch (InterruptedIOException interrupted) {
            Thread.currentThread().interrupt();
        } catch (IOException failure) {
            trouble = true;
        }
    }

    /**
     * Writes a line and its separator as one piece, as the JDK's PrintStream does for its own class (a subclass
     * prints, then ends the line, so that its overrides are called).
     */
    private void writeLine(String text) {
        writeLine(text.toCharArray());
    }

    private void writeLine(char[] text) {
        try {
            synchronized (this) {
                ensureOpen();
                characters.write(text);
                characters.write(System.lineSeparator());
                characters.flushBuffer();
                if (autoFlush) {
                    out.flush();
                }
            }
        } catch (InterruptedIOException interrupted) {
            Thread.currentThread().interrupt();
        } catch (IOException failure) {
            trouble = true;
        }
    }

    private void newLine() {
        try {
            synchronized (this) {
                ensureOpen();
                characters.write(System.lineSeparator());
                characters.flushBuffer();
                if (autoFlush) {
                    out.flush();
                }
            }
        } catch (InterruptedIOException interrupted) {
            Thread.currentThread().interrupt();
        } catch (IOException failure) {
            trouble = true;
        }
    }

    @Override
    public void print(boolean value) {
        writeText(String.valueOf(value));
    }

    @Override
    public void print(char value) {
        writeText(String.valueOf(value));
    }

    @Override
    public void print(int value) {
        writeText(String.valueOf(value));
    }

    @Override
    public void print(long value) {
        writeText(String.valueOf(value));
    }

    @Override
    public void print(float value) {
        writeText(String.valueOf(value));
    }

    @Override
    public void print(double value) {
        writeText(String.valueOf(value));
    }

    @Override
    public void print(char[] value) {
        writeText(value);
    }

    @Override
    public void print(String value) {
        writeText(String.valueOf(value));
    }

    @Override
    public void print(Object value) {
        writeText(String.valueOf(value));
    }

    @Override
    public void println() {
        newLine();
    }

    @Override
    public void println(boolean value) {
        if (getClass() == PicoPrintStream.class) {
            writeLine(String.valueOf(value));
        } else {
            synchronized (this) {
                print(value);
                newLine();
            }
        }
    }

    @Override
    public void println(char value) {
        if (getClass() == PicoPrintStream.class) {
            writeLine(String.valueOf(value));
        } else {
            synchronized (this) {
                print(value);
                newLine();
            }
        }
    }

    @Override
    public void println(int value) {
        if (getClass() == PicoPrintStream.class) {
            writeLine(String.valueOf(value));
        } else {
            synchronized (this) {
                print(value);
                newLine();
            }
        }
    }

    @Override
    public void println(long value) {
        if (getClass() == PicoPrintStream.class) {
            writeLine(String.valueOf(value));
        } else {
            synchronized (this) {
                print(value);
                newLine();
            }
        }
    }

    @Override
    public void println(float value) {
        if (getClass() == PicoPrintStream.class) {
            writeLine(String.valueOf(value));
        } else {
            synchronized (this) {
                print(value);
                newLine();
            }
        }
    }

    @Override
    public void println(double value) {
        if (getClass() == PicoPrintStream.class) {
            writeLine(String.valueOf(value));
        } else {
            synchronized (this) {
                print(value);
                newLine();
            }
        }
    }

    @Override
    public void println(char[] value) {
        if (getClass() == PicoPrintStream.class) {
            writeLine(value);
        } else {
            synchronized (this) {
                print(value);
                newLine();
            }
        }
    }

    @Override
    public void println(String value) {
        if (getClass() == PicoPrintStream.class) {
            writeLine(String.valueOf(value));
        } else {
            synchronized (this) {
                print(value);
                newLine();
            }
        }
    }

    @Override
    public void println(Object value) {
        String text = String.valueOf(value);
        if (getClass() == PicoPrintStream.class) {
            writeLine(text);
        } else {
            synchronized (this) {
                print(text);
                newLine();
            }
        }
    }
    @Override
    public PrintStream printf(String format, Object... arguments) {
        return format(format, arguments);
    }

    @Override
    public PrintStream printf(Locale locale, String format, Object... arguments) {
        return format(locale, format, arguments);
    }

    @Override
    public PrintStream format(String format, Object... arguments) {
        return formatIn(Locale.getDefault(Locale.Category.FORMAT), format, arguments);
    }

    @Override
    public PrintStream format(Locale locale, String format, Object... arguments) {
        return formatIn(locale, format, arguments);
    }

    /**
     * Formats into {@link FormattedText} first and prints its pieces one by one (the JDK's Formatter would call back
     * into this stream, a frame that is not rewritten); when formatting fails, the pieces formatted before the
     * failure are printed, as the JDK's stream would have.
     */
    private PrintStream formatIn(Locale locale, String format, Object... arguments) {
        synchronized (this) {
            try {
                ensureOpen();
            } catch (IOException closed) {
                trouble = true;
                return this;
            }
            FormattedText text = new FormattedText();
            try {
                new Formatter(text, locale).format(locale, format, arguments);
            } finally {
                for (String piece : text.pieces()) {
                    print(piece);
                }
            }
        }
        return this;
    }

    @Override
    public PrintStream append(CharSequence text) {
        print(String.valueOf(text));
        return this;
    }

    @Override
    public PrintStream append(CharSequence text, int start, int end) {
        CharSequence source = text == null ? "null" : text;
        return append(source.subSequence(start, end));
    }

    @Override
    public PrintStream append(char character) {
        print(character);
        return this;
    }

    /** Not for programs: the runtime's monitor of this stream (see {@link MonitorHome}). */
    @Override
    public final Monitors.Monitor runtimeMonitor() {
        return runtimeMonitor;
    }
}
