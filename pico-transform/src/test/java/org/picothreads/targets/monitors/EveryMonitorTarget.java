package org.picothreads.targets.monitors;

/** Runs every monitor target in turn and prints each result on a line, for a child JVM. */
public final class EveryMonitorTarget {
    private EveryMonitorTarget() {
    }

    public static void main(String[] arguments) throws Exception {
        System.out.println(run());
    }

    public static String run() throws Exception {
        return String.join("\n", SleepInsideSynchronized.run(), BoundedBuffer.run(), WaitAndNotify.run(),
                ExceptionsLeavingSynchronized.run(), RegionsAgainstSuspendedHolders.run());
    }
}
