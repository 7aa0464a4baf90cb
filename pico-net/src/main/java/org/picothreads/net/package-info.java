/**
 * Split-phase sockets for PicoThreads: replacements for java.net's sockets and java.io's stream decorators that
 * suspend only the calling PicoThread. Rewritten programs reach them through the transformer's redirect table.
 */
package org.picothreads.net;
