package org.picothreads.runtime.internal;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * The one frame through which the scheduler runs a PicoThread, and the driver that resumes a suspended one lazily:
 * its class marks, for the check of frames that cannot be captured ({@link CaptureSafety}), where a thread's own
 * frames end, without resolving method names.
 *
 * <p>A resume re-enters only the innermost saved activation, through the resume entry the transformer gives each
 * rewritten class ({@code private static boolean $picothreads$resume(Object receiver, int method)}, which calls the
 * method non-virtually with default arguments; the method restores its own values). The entry stops the capture
 * signal when the method is captured again and answers true, so that the signal lands once, in the entry, and crosses
 * neither the method handle frames of the driver's call nor the driver: exception unwinding costs the JVM a handler
 * lookup in each compiled frame it lands in or crosses, and a normal return costs nothing. That activation invokes its
 * blocking call again and runs on; when it returns, the entry hands its value to the result register, and the
 * driver enters the next saved activation, which continues after its call site with that value (or with the
 * exception, raised at the call site), and so on, like the JDK's return barrier. The activations below the running
 * one stay saved and are never captured again: a capture unwinds only to this frame, saves only what ran since the
 * resume, and puts it on top of what is still saved.
 *
 * <pre>
 * run(task):  first dispatch:  first activation entered fresh (ThreadEntries), or thread.run()
 *             (a resume of a thread that saved no activation: thread.run())
 *             resume:          while an activation is saved:  restoring; captured = entry(receiver, method)
 *                                                             (returned: register = value; threw: register = exception;
 *                                                             captured: end the capture, as below)
 *                              the register's exception, if any, ends the thread as uncaught
 *             a capture:       the entry stops the signal (on a first dispatch it lands here): the new activations
 *                              go on top of the saved ones, and run answers "captured" to the scheduler
 * </pre>
 */
final class DispatchFrame {
    /** The name of the resume entry of every rewritten class. */
    static final String RESUME_ENTRY = "$picothreads$resume";
    private static final MethodType RESUME_ENTRY_TYPE = MethodType.methodType(boolean.class, Object.class, int.class);
    /** The descriptor of every rewritten class's resume entry. */
    static final String RESUME_ENTRY_DESCRIPTOR = RESUME_ENTRY_TYPE.toMethodDescriptorString();

    /** Each rewritten class's resume entry, or null when the class has none this runtime can call. */
    private static final ClassValue<MethodHandle> ENTRIES = new ClassValue<>() {
        @Override
        protected MethodHandle computeValue(Class<?> type) {
            try {
                return MethodHandles.privateLookupIn(type, MethodHandles.lookup()).findStatic(type, RESUME_ENTRY,
                        RESUME_ENTRY_TYPE);
            } catch (ReflectiveOperationException | IllegalArgumentException | SecurityException notThere) {
                return null;
            }
        }
    };

    private DispatchFrame() {
    }

    /** True when the runtime can resume activations of methods of {@code type} lazily. */
    static boolean hasResumeEntry(Class<?> type) {
        return ENTRIES.get(type) != null;
    }

    /** The resume entry of {@code type}, or null when it has none this runtime can call. */
    static MethodHandle resumeEntryOf(Class<?> type) {
        return ENTRIES.get(type);
    }

    /**
     * Runs the task's thread from its start, or resumes it where it was captured: true when it was captured (the
     * capture has ended here: its activations are saved), false when it ran to its end; throws what ended it.
     *
     * <p>The capture signal goes no further than here: a resume entry stops it and answers true; a capture on a first
     * dispatch lands in this method; either way the driver returns to the scheduler normally.
     */
    static boolean run(Task task) throws Throwable {
        Carrier carrier = Carrier.here();
        Frame saved = carrier.frame;
        saved.attach(task);
        try {
            if (!task.isResumable()) {
                // A first dispatch: into the continuation of what the thread's run() leads to, entered fresh, when
                // the transformer made it a thread entry (its frames below are then this one's, as below a resumed
                // activation, and its first capture needs no walk); else through run().
                Object receiver = ThreadEntries.firstReceiver(task);
                MethodHandle first = ThreadEntries.entry(receiver);
                if (first != null) {
                    saved.requestFreshEntry();
                    first.invokeExact(receiver);
                    return saved.capturing() && captured(carrier, saved);
                }
                task.thread.run();
                return false;
            }
            if (!saved.hasSavedActivations()) {
                // A resume of a thread captured with no rewritten frame on its stack (its run() reached a blocking
                // call through forwarding frames alone), which runs them again to re-invoke it.
                task.thread.run();
                return false;
            }
            while (saved.hasSavedActivations()) {
                MethodHandle entry = saved.nextResumeEntry();
                if (entry == null) {
                    throw new IllegalStateException("PicoThreads: cannot resume " + saved.nextMethod() + ": its class "
                            + saved.nextOwner().getName() + " has no resume entry the runtime can call");
                }
                Object receiver = saved.nextReceiver();
                String resumed = saved.nextMethod();
                int method = saved.nextMethodIndex();
                Continuation.beginRestoring(carrier);
                carrier.counters.activationsRestored++;
                try {
                    if ((boolean) entry.invokeExact(receiver, method)) {
                        return captured(carrier, saved);
                    }
                    saved.returnedNothing();
                } catch (Capture signal) {
                    // An entry that lets the signal through (one written by hand may): still a capture, never an outcome.
                    return captured(carrier, saved);
                } catch (Throwable failure) {
                    // the activation below rethrows it at its call: its trace goes on with the ones still saved
                    ThreadDump.completeStackTrace(failure, resumed, saved, task);
                    saved.threw(failure);
                }
            }
            Throwable failure = saved.takeFailure();
            if (failure != null) {
                throw failure;
            }
            return false;
        } catch (Capture signal) {
            return captured(carrier, saved);
        } finally {
            saved.detach();
        }
    }

    /** Ends a capture that has reached the driver: its activations go on top of the ones still saved. */
    private static boolean captured(Carrier carrier, Frame saved) {
        carrier.counters.activationsSaved += saved.endCapture();
        return true;
    }
}
