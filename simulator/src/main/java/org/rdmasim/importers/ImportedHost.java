package org.rdmasim.importers;

import org.rdmasim.hardware.HostSpec;

/** One host read from a file, with the identity the file gave its devices. */
public record ImportedHost(HostSpec spec, HostIdentity identity) {
}
