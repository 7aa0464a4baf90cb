/**
 * The crawler, in the paper's plain style: one {@code java.lang.Thread} per URL, blocking {@code java.net.Socket}
 * I/O, jsoup for links. This is the only package pico-maven-plugin rewrites; the platform, pool and virtual modes
 * load an untransformed copy of it.
 */
package org.picothreads.piranha.crawler;
