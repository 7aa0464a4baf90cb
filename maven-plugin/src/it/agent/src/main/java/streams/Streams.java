package streams;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;

/** Threads that write and read text and data through java.io's decorators, with no socket, sleeping in between. */
public final class Streams {
    private Streams() {
    }

    public static void main(String[] args) throws Exception {
        System.out.println(run(Integer.parseInt(args[0])));
    }

    /** Starts {@code count} threads that each round-trip a few lines and numbers, and sums up what they read. */
    public static String run(int count) throws InterruptedException {
        String[] results = new String[count];
        List<Thread> threads = new ArrayList<>();
        for (int index = 0; index < count; index++) {
            int number = index;
            Thread thread = new Thread(() -> results[number] = roundTrip(number));
            threads.add(thread);
            thread.start();
        }
        long total = 0;
        for (int index = 0; index < count; index++) {
            threads.get(index).join();
            total += Long.parseLong(results[index].substring(results[index].lastIndexOf(' ') + 1));
        }
        return results[0] + "; total " + total + " on " + threads.get(0).getClass().getName();
    }

    static String roundTrip(int number) {
        try {
            StringWriter text = new StringWriter();
            PrintWriter writer = new PrintWriter(text);
            writer.println("line " + number);
            writer.println("line " + (number + 1));
            writer.flush();
            Thread.sleep(5);
            BufferedReader reader = new BufferedReader(new StringReader(text.toString()));
            String first = reader.readLine();
            String second = reader.readLine();
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream data = new DataOutputStream(bytes);
            data.writeLong(number * 10L);
            data.flush();
            Thread.sleep(5);
            long value = new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())).readLong();
            ByteArrayOutputStream printed = new ByteArrayOutputStream();
            PrintStream print = new PrintStream(printed, true);
            print.print(first + "/" + second + " " + value);
            return printed.toString();
        } catch (IOException | InterruptedException failure) {
            return failure + " 0";
        }
    }
}
