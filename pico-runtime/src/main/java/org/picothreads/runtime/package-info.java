/**
 * PicoThreads' public runtime API: {@link org.picothreads.runtime.PicoThread} and the scheduler's facade.
 * Everything under {@code internal} is machinery that rewritten code calls and users should not.
 */
package org.picothreads.runtime;
