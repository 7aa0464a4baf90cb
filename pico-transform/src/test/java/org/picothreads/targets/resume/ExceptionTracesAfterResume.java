package org.picothreads.targets.resume;

/**
 * Exceptions thrown after a thread's innermost activation was resumed lazily (the activations below it still saved),
 * caught several activations down: one thrown by the resumed activation itself, one by a method it calls afresh,
 * one made before the sleep and thrown after it; and one thrown by a method the resumed activation calls afresh and
 * caught by the resumed activation itself. Each one's stack trace, the one a platform thread's exception
 * would have, must name the same methods at the same lines, innermost first, down to the thread's lambda.
 */
public final class ExceptionTracesAfterResume {
    private ExceptionTracesAfterResume() {
    }

    public static String run() throws Exception {
        StringBuilder seen = new StringBuilder();
        for (int kind = 0; kind < 4; kind++) {
            int thrown = kind;
            Thread thread = new Thread(() -> seen.append(outer(thrown)).append('\n'));
            thread.start();
            thread.join();
        }
        return seen.toString();
    }

    static String outer(int kind) {
        try {
            middle(2, kind);
            return "nothing thrown";
        } catch (IllegalStateException e) {
            return e.getMessage() + ": " + ownFrames(e.getStackTrace())
                    + (e.getCause() == null ? "" : "; its cause: " + ownFrames(e.getCause().getStackTrace()));
        }
    }

    static void middle(int depth, int kind) {
        if (depth == 0) {
            inner(kind);
        } else {
            middle(depth - 1, kind);
        }
    }

    static void inner(int kind) {
        IllegalStateException early = new IllegalStateException("made before the sleep, thrown after it");
        try {
            Thread.sleep(1); // suspends: after it, only this activation runs again on the carrier
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
        if (kind == 0) {
            throw new IllegalStateException("thrown by the resumed activation");
        }
        if (kind == 1) {
            thrower();
        }
        if (kind == 3) {
            try {
                thrower();
            } catch (IllegalStateException caught) {
                throw new IllegalStateException("caught by the resumed activation, its trace "
                        + ownFrames(caught.getStackTrace()) + ", its cause's " + ownFrames(caught.getCause().getStackTrace()));
            }
        }
        throw early;
    }

    static void thrower() {
        throw new IllegalStateException("thrown by a method called after the resume",
                new RuntimeException("its cause, made there too"));
    }

    /** This class's frames in a stack trace, as method:line, innermost first. */
    static String ownFrames(StackTraceElement[] trace) {
        StringBuilder frames = new StringBuilder();
        for (StackTraceElement element : trace) {
            if (element.getClassName().equals(ExceptionTracesAfterResume.class.getName())) {
                frames.append(element.getMethodName()).append(':').append(element.getLineNumber()).append(' ');
            }
        }
        return frames.toString().trim();
    }
}
