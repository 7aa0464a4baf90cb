package org.picothreads.runtime.concurrent;

/** How the runtime's replacement types name themselves in {@code toString}: as the JDK type they stand in for. */
final class JdkNames {
    private JdkNames() {
    }

    /**
     * {@code Object.toString()} of {@code object} as if it were an instance of {@code jdkType} when its class is
     * exactly {@code replacement}; a user subclass keeps its own name.
     */
    static String identity(Object object, Class<?> replacement, Class<?> jdkType) {
        Class<?> type = object.getClass() == replacement ? jdkType : object.getClass();
        return type.getName() + "@" + Integer.toHexString(object.hashCode());
    }
}
