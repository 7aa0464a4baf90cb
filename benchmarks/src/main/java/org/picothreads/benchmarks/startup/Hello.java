package org.picothreads.benchmarks.startup;

/** The program {@link ToolStartUp} starts with and without the agent: it prints one line, nothing more. */
public final class Hello {
    private Hello() {
    }

    public static void main(String[] args) {
        System.out.println("hello");
    }
}
