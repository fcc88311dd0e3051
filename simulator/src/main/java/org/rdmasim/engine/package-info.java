/**
 * The event engine: one SSJ {@link umontreal.ssj.simevents.Simulator} per replication, driven by a
 * Henriksen event list, plus seeded random streams. Everything above schedules work through
 * {@link org.rdmasim.engine.SimulationClock}; nothing here knows about networks.
 */
package org.rdmasim.engine;
