package org.picothreads.benchmarks.startup;

import java.lang.instrument.Instrumentation;

/**
 * An agent whose premain does nothing: what {@code -javaagent} costs the JVM by itself (the instrumentation module,
 * the agent jar opened and its class loaded), the floor under any agent's start-up, which {@link ToolStartUp} measures
 * beside pico-agent.
 */
public final class NoOpAgent {
    private NoOpAgent() {
    }

    public static void premain(String options, Instrumentation instrumentation) {
    }
}
