package org.picothreads.net.io;

import java.io.File;
import java.io.FileNotFoundException;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.UnsupportedEncodingException;
import java.io.Writer;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.UnsupportedCharsetException;
import java.util.Formatter;
import java.util.Locale;
import java.util.Objects;
import org.picothreads.runtime.internal.MonitorHome;
import org.picothreads.runtime.internal.Monitors;

/**
 * The PrintWriter that rewritten code creates: printing, formatting, the error flag and automatic flushing are its
 * own, over the inherited {@code out} writer (a {@link PicoBufferedWriter} over a {@link PicoOutputStreamWriter}
 * when given a stream or a file), so that a write suspending below it is captured through it.
 */
public class PicoPrintWriter extends PrintWriter implements MonitorHome {
    /** This writer's runtime monitor, kept here instead of in the runtime's tables (see {@link MonitorHome}). */
    private final Monitors.Monitor runtimeMonitor = Monitors.newHomedMonitor();
    private final boolean autoFlush;
    private boolean trouble;
    /** The PrintStream this writer was made over, whose error flag checkError reports. */
    private PrintStream printStream;

    /** As {@link PrintWriter#PrintWriter(Writer)}. */
    public PicoPrintWriter(Writer out) {
        this(out, false);
    }

    /** As {@link PrintWriter#PrintWriter(Writer, boolean)}. */
    public PicoPrintWriter(Writer out, boolean autoFlush) {
        super(out, autoFlush);
        this.autoFlush = autoFlush;
    }

    /** As {@link PrintWriter#PrintWriter(OutputStream)}. */
    public PicoPrintWriter(OutputStream out) {
        this(out, false);
    }

    /** As {@link PrintWriter#PrintWriter(OutputStream, boolean)}. */
    public PicoPrintWriter(OutputStream out, boolean autoFlush) {
        this(out, autoFlush, Charset.defaultCharset());
    }

    /** As {@link PrintWriter#PrintWriter(OutputStream, boolean, Charset)}. */
    public PicoPrintWriter(OutputStream out, boolean autoFlush, Charset charset) {
        this(new PicoBufferedWriter(new PicoOutputStreamWriter(out, charset)), autoFlush);
        if (out instanceof PrintStream stream) {
            printStream = stream;
        }
    }

    /** As {@link PrintWriter#PrintWriter(String)}. */
    public PicoPrintWriter(String fileName) throws FileNotFoundException {
        this(fileWriter(new File(fileName), Charset.defaultCharset()), false);
    }

    /** As {@link PrintWriter#PrintWriter(String, String)}. */
    public PicoPrintWriter(String fileName, String charsetName) throws FileNotFoundException,
            UnsupportedEncodingException {
        this(fileWriter(charsetNamed(charsetName), new File(fileName)), false);
    }

    /** As {@link PrintWriter#PrintWriter(String, Charset)}. */
    public PicoPrintWriter(String fileName, Charset charset) throws IOException {
        this(fileWriter(Objects.requireNonNull(charset, "charset"), new File(fileName)), false);
    }

    /** As {@link PrintWriter#PrintWriter(File)}. */
    public PicoPrintWriter(File file) throws FileNotFoundException {
        this(fileWriter(file, Charset.defaultCharset()), false);
    }

    /** As {@link PrintWriter#PrintWriter(File, String)}. */
    public PicoPrintWriter(File file, String charsetName) throws FileNotFoundException, UnsupportedEncodingException {
        this(fileWriter(charsetNamed(charsetName), file), false);
    }

    /** As {@link PrintWriter#PrintWriter(File, Charset)}. */
    public PicoPrintWriter(File file, Charset charset) throws IOException {
        this(fileWriter(Objects.requireNonNull(charset, "charset"), file), false);
    }

    private static Writer fileWriter(File file, Charset charset) throws FileNotFoundException {
        return new PicoBufferedWriter(new PicoOutputStreamWriter(new FileOutputStream(file), charset));
    }

    private static Writer fileWriter(Charset charset, File file) throws FileNotFoundException {
        return fileWriter(file, charset);
    }

    static Charset charsetNamed(String charsetName) throws UnsupportedEncodingException {
        Objects.requireNonNull(charsetName, "charsetName");
        try {
            return Charset.forName(charsetName);
        } catch (IllegalCharsetNameException | UnsupportedCharsetException unsupported) {
            throw new UnsupportedEncodingException(charsetName);
        }
    }

    private void ensureOpen() throws IOException {
        if (out == null) {
            throw new IOException("Stream closed");
        }
    }

    @Override
    public void flush() {
        try {
            synchronized (lock) {
                ensureOpen();
                out.flush();
            }
        } catch (IOException failure) {
            trouble = true;
        }
    }

    @Override
    public void close() {
        try {
            synchronized (lock) {
                if (out == null) {
                    return;
                }
                out.close();
                out = null;
            }
        } catch (IOException failure) {
            trouble = true;
        }
    }

    @Override
    public boolean checkError() {
        if (out != null) {
            flush();
        }
        if (out instanceof PrintWriter writer) {
            return writer.checkError();
        }
        if (printStream != null) {
            return printStream.checkError();
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
    public void write(int character) {
        try {
            synchronized (lock) {
                ensureOpen();
                out.write(character);
            }
        } catch (InterruptedIOException interrupted) {
            Thread.currentThread().interrupt();
        } catch (IOException failure) {
            trouble = true;
        }
    }

    @Override
    public void write(char[] buffer, int offset, int length) {
        try {
            synchronized (lock) {
                ensureOpen();
                out.write(buffer, offset, length);
            }
        } catch (InterruptedIOException interrupted) {
            Thread.currentThread().interrupt();
        } catch (IOException failure) {
            trouble = true;
        }
    }

    @Override
    public void write(char[] buffer) {
        write(buffer, 0, buffer.length);
    }

    @Override
    public void write(String text, int offset, int length) {
        try {
            synchronized (lock) {
                ensureOpen();
                out.write(text, offset, length);
            }
        } catch (InterruptedIOException interrupted) {
            Thread.currentThread().interrupt();
        } catch (IOException failure) {
            trouble = true;
        }
    }

    @Override
    public void write(String text) {
        write(text, 0, text.length());
    }

    private void newLine() {
        try {
            synchronized (lock) {
                ensureOpen();
                out.write(System.lineSeparator());
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
        write(String.valueOf(value));
    }

    @Override
    public void print(char value) {
        write(value);
    }

    @Override
    public void print(int value) {
        write(String.valueOf(value));
    }

    @Override
    public void print(long value) {
        write(String.valueOf(value));
    }

    @Override
    public void print(float value) {
        write(String.valueOf(value));
    }

    @Override
    public void print(double value) {
        write(String.valueOf(value));
    }

    @Override
    public void print(char[] value) {
        write(value);
    }

    @Override
    public void print(String value) {
        write(String.valueOf(value));
    }

    @Override
    public void print(Object value) {
        write(String.valueOf(value));
    }

    @Override
    public void println() {
        newLine();
    }

    @Override
    public void println(boolean value) {
        synchronized (lock) {
            print(value);
            println();
        }
    }

    @Override
    public void println(char value) {
        synchronized (lock) {
            print(value);
            println();
        }
    }

    @Override
    public void println(int value) {
        synchronized (lock) {
            print(value);
            println();
        }
    }

    @Override
    public void println(long value) {
        synchronized (lock) {
            print(value);
            println();
        }
    }

    @Override
    public void println(float value) {
        synchronized (lock) {
            print(value);
            println();
        }
    }

    @Override
    public void println(double value) {
        synchronized (lock) {
            print(value);
            println();
        }
    }

    @Override
    public void println(char[] value) {
        synchronized (lock) {
            print(value);
            println();
        }
    }

    @Override
    public void println(String value) {
        synchronized (lock) {
            print(value);
            println();
        }
    }

    @Override
    public void println(Object value) {
        String text = String.valueOf(value);
        synchronized (lock) {
            print(text);
            println();
        }
    }
    @Override
    public PrintWriter printf(String format, Object... arguments) {
        return format(format, arguments);
    }

    @Override
    public PrintWriter printf(Locale locale, String format, Object... arguments) {
        return format(locale, format, arguments);
    }

    @Override
    public PrintWriter format(String format, Object... arguments) {
        return formatIn(Locale.getDefault(), format, arguments);
    }

    @Override
    public PrintWriter format(Locale locale, String format, Object... arguments) {
        return formatIn(locale, format, arguments);
    }

    /**
     * Formats into {@link FormattedText} first and writes its pieces one by one (the JDK's Formatter would call back
     * into this writer, a frame that is not rewritten); when formatting fails, the pieces formatted before the failure
     * are written, as the JDK's writer would have.
     */
    private PrintWriter formatIn(Locale locale, String format, Object... arguments) {
        synchronized (lock) {
            try {
                ensureOpen();
                FormattedText text = new FormattedText();
                try {
                    new Formatter(text, locale).format(locale, format, arguments);
                } finally {
                    for (String piece : text.pieces()) {
                        write(piece);
                    }
                }
                if (autoFlush) {
                    out.flush();
                }
            } catch (InterruptedIOException interrupted) {
                Thread.currentThread().interrupt();
            } catch (IOException failure) {
                trouble = true;
            }
        }
        return this;
    }

    @Override
    public PrintWriter append(CharSequence text) {
        write(String.valueOf(text));
        return this;
    }

    @Override
    public PrintWriter append(CharSequence text, int start, int end) {
        CharSequence source = text == null ? "null" : text;
        return append(source.subSequence(start, end));
    }

    @Override
    public PrintWriter append(char character) {
        write(character);
        return this;
    }

    /** Not for programs: the runtime's monitor of this writer (see {@link MonitorHome}). */
    @Override
    public final Monitors.Monitor runtimeMonitor() {
        return runtimeMonitor;
    }
}
