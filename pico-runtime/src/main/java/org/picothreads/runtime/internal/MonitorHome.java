package org.picothreads.runtime.internal;

/**
 * An object of PicoThreads' own libraries that keeps its runtime monitor ({@link Monitors}) itself, so that a region
 * on it finds the monitor without a lookup in the runtime's tables. pico-net's streams, readers and writers are
 * homes: their methods enter regions on themselves, or on the stream or writer they wrap, at every call. Not for
 * programs: an implementation must return the same monitor, made by {@link Monitors#newHomedMonitor()} for this
 * object alone, every time.
 */
public interface MonitorHome {
    /** This object's monitor, the one {@link Monitors#newHomedMonitor()} made for it. */
    Monitors.Monitor runtimeMonitor();
}
