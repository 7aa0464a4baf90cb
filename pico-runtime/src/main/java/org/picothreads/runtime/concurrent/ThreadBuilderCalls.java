package org.picothreads.runtime.concurrent;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.concurrent.ThreadFactory;
import org.picothreads.runtime.PicoThread;

/**
 * {@code start}, {@code unstarted} and {@code factory} of JDK 21's {@code Thread.Builder}, made to create PicoThreads.
 * The builder interfaces are sealed, so no runtime class can implement them: rewritten code keeps the JDK's own
 * builder (configuring it as usual) and only these three calls are redirected. Each new thread is described by an
 * unstarted thread the JDK builder makes (a cheap object: name and counter, daemon flag, priority, group, handler),
 * and a PicoThread with those properties runs the task instead. The runtime compiles for Java 17, so the builder
 * is reached reflectively.
 */
final class ThreadBuilderCalls {
    /** The task of the template threads, which never start. */
    private static final Runnable NOTHING = () -> {
    };
    private static final Method UNSTARTED;
    private static final Method FACTORY;
    private static final Class<?> OF_VIRTUAL;

    static {
        Method unstarted = null;
        Method factory = null;
        Class<?> ofVirtual = null;
        try {
            Class<?> builder = Class.forName("java.lang.Thread$Builder");
            unstarted = builder.getMethod("unstarted", Runnable.class);
            factory = builder.getMethod("factory");
            ofVirtual = Class.forName("java.lang.Thread$Builder$OfVirtual");
        } catch (ReflectiveOperationException beforeJava21) {
            unstarted = null;
        }
        UNSTARTED = unstarted;
        FACTORY = factory;
        OF_VIRTUAL = ofVirtual;
    }

    private ThreadBuilderCalls() {
    }

    /** {@code builder.start(task)}: a started PicoThread with the properties the builder gives its next thread. */
    static Thread start(Object builder, Runnable task) {
        Thread thread = unstarted(builder, task);
        thread.start();
        return thread;
    }

    /** {@code builder.unstarted(task)}: an unstarted PicoThread with the builder's next thread's properties. */
    static Thread unstarted(Object builder, Runnable task) {
        if (task == null) {
            throw new NullPointerException();
        }
        return copyOf((Thread) call(UNSTARTED, builder, NOTHING), task, OF_VIRTUAL.isInstance(builder));
    }

    /** {@code builder.factory()}: a factory of PicoThreads like the threads of the builder's own factory. */
    static ThreadFactory factory(Object builder) {
        ThreadFactory templates = (ThreadFactory) call(FACTORY, builder);
        boolean virtual = OF_VIRTUAL.isInstance(builder);
        return task -> {
            if (task == null) {
                throw new NullPointerException();
            }
            return copyOf(templates.newThread(NOTHING), task, virtual);
        };
    }

    /** A PicoThread running {@code task} with the name, daemon flag, priority, group and handler of the template. */
    private static PicoThread copyOf(Thread template, Runnable task, boolean virtual) {
        ThreadGroup group = virtual ? null : template.getThreadGroup();
        PicoThread thread = new PicoThread(group, task, template.getName(), 0, true);
        if (thread.isDaemon() != template.isDaemon()) {
            thread.setDaemon(template.isDaemon());
        }
        if (!virtual && thread.getPriority() != template.getPriority()) {
            thread.setPriority(template.getPriority());
        }
        Thread.UncaughtExceptionHandler handler = template.getUncaughtExceptionHandler();
        if (handler != null && handler != template.getThreadGroup()) {
            thread.setUncaughtExceptionHandler(handler);
        }
        return thread;
    }

    private static Object call(Method method, Object builder, Object... arguments) {
        if (method == null) {
            throw new UnsupportedOperationException("Thread.Builder needs JDK 21 or later");
        }
        try {
            return method.invoke(builder, arguments);
        } catch (InvocationTargetException failure) {
            Throwable cause = failure.getCause();
            if (cause instanceof RuntimeException) {
                throw (RuntimeException) cause;
            }
            if (cause instanceof Error) {
                throw (Error) cause;
            }
            throw new IllegalStateException(cause);
        } catch (IllegalAccessException impossible) {
            throw new IllegalStateException(impossible);
        }
    }
}
