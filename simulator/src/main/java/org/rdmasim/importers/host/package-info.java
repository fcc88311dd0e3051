/** Choosing the reader for a host file by its format ({@link org.rdmasim.importers.host.HostFileReader}). */
package org.rdmasim.importers.host;
