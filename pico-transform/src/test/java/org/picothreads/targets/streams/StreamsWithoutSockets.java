package org.picothreads.targets.streams;

import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.Reader;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;

/**
 * Threads that use the java.io decorators pico-net stands in for over sockets (BufferedReader, PrintWriter,
 * PrintStream, DataInputStream and the others, and a subclass of BufferedReader) on strings and byte arrays, with
 * no socket anywhere, sleeping between their steps. Without pico-net on the class path the rewritten program must
 * keep the JDK's types and run as it does untransformed.
 */
public final class StreamsWithoutSockets {
    private StreamsWithoutSockets() {
    }

    /** A direct subclass of BufferedReader, which counts the lines it read. */
    static final class CountingReader extends BufferedReader {
        private int linesRead;

        CountingReader(Reader in) {
            super(in);
        }

        @Override
        public String readLine() throws IOException {
            String line = super.readLine();
            if (line != null) {
                linesRead++;
            }
            return line;
        }

        int linesRead() {
            return linesRead;
        }
    }

    static String work(int index) throws IOException, InterruptedException {
        StringWriter text = new StringWriter();
        try (PrintWriter writer = new PrintWriter(new BufferedWriter(text))) {
            for (int line = 0; line < 3; line++) {
                writer.println("thread " + index + " line " + line);
                Thread.sleep(1);
            }
        }
        StringBuilder read = new StringBuilder();
        try (CountingReader reader = new CountingReader(new StringReader(text.toString()))) {
            String line;
            while ((line = reader.readLine()) != null) {
                read.append(line.length()).append(',');
                Thread.sleep(1);
            }
            read.append(reader.linesRead()).append(" lines;");
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream data = new DataOutputStream(bytes)) {
            data.writeInt(index * 1000);
            data.writeLong(-index);
            data.writeUTF("é" + index);
        }
        Thread.sleep(1);
        try (DataInputStream data = new DataInputStream(new BufferedInputStream(
                new ByteArrayInputStream(bytes.toByteArray())))) {
            read.append(data.readInt()).append(' ').append(data.readLong()).append(' ').append(data.readUTF());
        }
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        try (PrintStream print = new PrintStream(printed, true, StandardCharsets.UTF_8)) {
            print.print(';');
            print.println(index);
        }
        Thread.sleep(1);
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(
                new ByteArrayInputStream(printed.toByteArray()), StandardCharsets.UTF_8))) {
            read.append(lines.readLine());
        }
        ByteArrayOutputStream encoded = new ByteArrayOutputStream();
        try (OutputStreamWriter writer = new OutputStreamWriter(encoded, StandardCharsets.UTF_8)) {
            writer.write("ü");
        }
        return read.append(" utf8 bytes ").append(encoded.size()).toString();
    }

    public static String run() throws Exception {
        String[] results = new String[3];
        Thread[] threads = new Thread[results.length];
        for (int index = 0; index < threads.length; index++) {
            int number = index;
            threads[index] = new Thread(() -> {
                try {
                    results[number] = work(number);
                } catch (IOException | InterruptedException failure) {
                    results[number] = failure.toString();
                }
            });
            threads[index].start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        return String.join(" | ", results);
    }
}
