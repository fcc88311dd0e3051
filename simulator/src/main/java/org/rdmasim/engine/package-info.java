/**
 * The event engine: one SSJ {@link umontreal.ssj.simevents.Simulator} per replication, driven by an
 * array-heap event list ({@link org.rdmasim.engine.HeapEventList}; SSJ's Henriksen list is
 * selectable and fires in the same order), plus seeded random streams. Events are small named
 * classes, counted by kind. Everything above schedules work through
 * {@link org.rdmasim.engine.SimulationClock}; nothing here knows about networks.
 */
package org.rdmasim.engine;
