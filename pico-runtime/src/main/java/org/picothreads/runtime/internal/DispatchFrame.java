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
 * rewritten class ({@code private static void $picothreads$resume(Object receiver, int method)}, which calls the
 * method non-virtually with default arguments; the method restores its own values). That activation invokes its
 * blocking call again and runs on; when it returns, the entry hands its value to the result register, and the
 * driver enters the next saved activation, which continues after its call site with that value (or with the
 * exception, raised at the call site), and so on, like the JDK's return barrier. The activations below the running
 * one stay saved and are never captured again: a capture unwinds only to this frame, saves only what ran since the
 * resume, and puts it on top of what is still saved.
 *
 * <pre>
 * run(task):  first dispatch:  thread.run()      (and a resume of a thread that saved no activation)
 *             resume:          while an activation is saved:  restoring; entry(receiver, method)
 *                                                             (returned: register = value; threw: register = exception)
 *                              the register's exception, if any, ends the thread as uncaught
 *             a capture:       the signal lands here and stops: the new activations go on top of the saved ones,
 *                              and run answers "captured" to the scheduler
 * </pre>
 */
final class DispatchFrame {
    /** The name of the resume entry of every rewritten class. */
    static final String RESUME_ENTRY = "$picothreads$resume";
    private static final MethodType RESUME_ENTRY_TYPE = MethodType.methodType(void.class, Object.class, int.class);
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

    /**
     * Runs the task's thread from its start, or resumes it where it was captured: true when it was captured (the
     * capture has ended here: its activations are saved), false when it ran to its end; throws what ended it.
     *
     * <p>The capture signal stops here: it lands once, at the catch around the call it unwinds, and the driver
     * returns to the scheduler normally instead of throwing it on, because each compiled frame an exception lands in
     * or crosses costs the JVM a handler lookup.
     */
    static boolean run(Task task) throws Throwable {
        Carrier carrier = Carrier.here();
        Frame saved = carrier.frame;
        saved.attach(task);
        try {
            if (!task.isResumable() || !saved.hasSavedActivations()) {
                // A first dispatch; or a resume of a thread captured with no rewritten frame on its stack (its run()
                // reached a blocking call through forwarding frames alone), which runs them again to re-invoke it.
                task.thread.run();
                return false;
            }
            while (saved.hasSavedActivations()) {
                MethodHandle entry = ENTRIES.get(saved.nextOwner());
                if (entry == null) {
                    throw new IllegalStateException("PicoThreads: cannot resume " + saved.nextMethod() + ": its class "
                            + saved.nextOwner().getName() + " has no resume entry the runtime can call");
                }
                Object receiver = saved.nextReceiver();
                int method = saved.nextMethodIndex();
                Continuation.beginRestoring(carrier);
                carrier.counters.activationsRestored++;
                try {
                    entry.invokeExact(receiver, method);
                    saved.returnedNothing();
                } catch (Capture signal) {
                    return captured(carrier, saved);
                } catch (Throwable failure) {
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
