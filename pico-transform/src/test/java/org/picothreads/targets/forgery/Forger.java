package org.picothreads.targets.forgery;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.List;
import org.picothreads.runtime.internal.Continuation;
import org.picothreads.runtime.internal.Frame;

/**
 * A hand-written class, never rewritten, that tries to reach another method's saved activations: it calls the
 * capture and restore entry points with the victim's key directly, through the invokedynamic bootstrap with its own
 * lookup and with a lookup it obtained for the victim's class, and by reflection, and tries to set the restoring hint
 * and read the caller token. Each attempt must fail with a clear error and change nothing.
 */
public final class Forger {
    private Forger() {
    }

    /** One round of attempts on {@code victimKey}, a method of {@code victim}: what each attempt met, one per line. */
    public static List<String> attack(Class<?> victim, String victimKey) {
        List<String> met = new ArrayList<>();
        met.add(attempt("resumeChecked with its own lookup",
                () -> Continuation.resumeChecked(victimKey, MethodHandles.lookup())));
        met.add(attempt("captureChecked with its own lookup",
                () -> Continuation.captureChecked(null, 0, 0, victimKey, MethodHandles.lookup())));
        met.add(attempt("link with its own lookup", () -> Continuation.link(MethodHandles.lookup(), "resume",
                MethodType.methodType(Frame.class), victimKey)));
        met.add(attempt("link with a private lookup in the victim's class", () -> Continuation.link(
                MethodHandles.privateLookupIn(victim, MethodHandles.lookup()), "capture",
                MethodType.methodType(Frame.class, Object.class, int.class, long.class), victimKey)));
        met.add(attempt("resume by reflection", () -> Continuation.class.getDeclaredMethod("resume", String.class)
                .invoke(null, victimKey)));
        met.add(attempt("capture by reflection", () -> Continuation.class.getDeclaredMethod("capture", Object.class,
                Class.forName("org.picothreads.runtime.internal.SavedMethod"), int.class, long.class)
                .invoke(null, null, null, 0, 0L)));
        met.add(attempt("the victim's resume entry by reflection", () -> {
            // Untransformed, the victim has no resume entry: the attempt then meets what a private one gives.
            for (java.lang.reflect.Method method : victim.getDeclaredMethods()) {
                if (method.getName().equals("$picothreads$resume")) {
                    return method.invoke(null, null, 0);
                }
            }
            throw new IllegalAccessException("no resume entry");
        }));
        met.add(attempt("suspend by reflection", () -> Continuation.class.getDeclaredMethod("suspend")
                .invoke(null)));
        // the hint is each carrier's own mode, a field of the carrier thread; the forger offers the thread it runs on
        met.add(attempt("setting the restoring hint by reflection", () -> {
            Class.forName("org.picothreads.runtime.internal.Carrier").getDeclaredField("restoring")
                    .setBoolean(Thread.currentThread(), true);
            return null;
        }));
        // the token is each carrier's, in its frame's private field; the forger holds no frame, so it offers any object
        met.add(attempt("reading the caller token by reflection", () -> Frame.class
                .getDeclaredField("callerToken").get(new Object())));
        met.add(attempt("link by reflection with its own lookup", () -> Continuation.class.getMethod("link",
                MethodHandles.Lookup.class, String.class, MethodType.class, String.class)
                .invoke(null, MethodHandles.lookup(), "resume", MethodType.methodType(Frame.class), victimKey)));
        met.add(attempt("resumeEntryCalled", () -> {
            Continuation.resumeEntryCalled();
            return null;
        }));
        met.add(attempt("resultVoid", () -> {
            Continuation.resultVoid();
            return null;
        }));
        met.add(attempt("resultInt", Continuation::resultInt));
        met.add(attempt("resultLong", Continuation::resultLong));
        met.add(attempt("resultFloat", Continuation::resultFloat));
        met.add(attempt("resultDouble", Continuation::resultDouble));
        met.add(attempt("resultObject", Continuation::resultObject));
        return met;
    }

    /**
     * Hands a forged outcome over as a resume entry would, from inside a running activation: refused on a platform
     * thread; on a PicoThread it reaches only that thread's own result register, whose next outcome the runtime's own
     * hand-over replaces, so the activation's caller still continues with the value really returned.
     */
    public static void handOverForged() {
        try {
            Continuation.returnedObject("forged");
            Continuation.returned(-1, 'I');
        } catch (IllegalCallerException refused) {
            // on a platform thread: nothing to forge
        }
    }

    /** An attempt that may throw anything. */
    private interface Attempt {
        Object run() throws Throwable;
    }

    /**
     * What an attempt met: the exception (the cause, for a reflective call that threw), with the runtime's own message
     * and only the type of the JDK's, whose wording is the JDK's; or what it returned.
     */
    private static String attempt(String what, Attempt attempt) {
        try {
            return what + ": returned " + attempt.run();
        } catch (InvocationTargetException thrown) {
            return what + ": " + describe(thrown.getCause());
        } catch (Throwable thrown) {
            return what + ": " + describe(thrown);
        }
    }

    private static String describe(Throwable thrown) {
        return thrown instanceof IllegalCallerException ? thrown.toString() : thrown.getClass().getName();
    }
}
