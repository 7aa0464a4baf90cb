/**
 * The synthetic web Piranha crawls by default: pages generated from a seed, served by one non-blocking selector
 * loop over several virtual hosts on 127.0.0.1, with per-connection bandwidth throttling and added latency. Never
 * rewritten.
 */
package org.picothreads.piranha.web;
