/**
 * The seam between Piranha's driver and its crawler: the settings, counters and thread-starting strategy the
 * driver hands to a crawler, whichever copy of the crawler (rewritten or untransformed) it loaded. Never rewritten.
 */
package org.picothreads.piranha.api;
