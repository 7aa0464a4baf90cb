package org.picothreads.targets.resume;

/**
 * A thread that looks at its own stack trace three calls deep, before it suspends and after its innermost activation
 * was resumed lazily (the activations below it are still saved): both times the trace must name the same methods
 * at the same lines as on a platform thread, innermost first.
 */
public final class StackTracesAfterResume {
    private StackTracesAfterResume() {
    }

    public static String run() throws Exception {
        String[] seen = new String[1];
        Thread thread = new Thread(() -> seen[0] = outer());
        thread.start();
        thread.join();
        return seen[0];
    }

    static String outer() {
        return middle(2);
    }

    static String middle(int depth) {
        return depth == 0 ? inner() : middle(depth - 1);
    }

    static String inner() {
        String before = ownFrames();
        try {
            Thread.sleep(1); // suspends: after it, only this activation runs again on the carrier
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
        String after = ownFrames();
        return "before the sleep: " + before + "\nafter it: " + after;
    }

    /** This class's frames in the running thread's stack trace, as method:line, innermost first. */
    static String ownFrames() {
        StringBuilder frames = new StringBuilder();
        for (StackTraceElement element : Thread.currentThread().getStackTrace()) {
            if (element.getClassName().equals(StackTracesAfterResume.class.getName())) {
                frames.append(element.getMethodName()).append(':').append(element.getLineNumber()).append(' ');
            }
        }
        return frames.toString().trim();
    }
}
