package org.rdmasim.importers;

import java.util.Map;

/**
 * What a topology file says a device is, kept as written so an export can say it again: the
 * {@code <pci>} attributes (busid, class, vendor, device, subsystem ids) and those of the element
 * below it ({@code <gpu>}: dev, sm, rank, gcn...; {@code <net>}: dev, guid, port, maxconn...).
 * The simulator does not use them; they round-trip.
 */
public record DeviceIdentity(Map<String, String> pci, Map<String, String> device) {
    public DeviceIdentity {
        pci = Map.copyOf(pci);
        device = Map.copyOf(device);
    }
}
