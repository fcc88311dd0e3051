/**
 * NCCL's topology XML, both ways: {@link org.rdmasim.importers.nccl.NcclTopologyReader} turns a file
 * dumped by {@code NCCL_TOPO_DUMP_FILE} (or RCCL's), or published for a cloud instance type, into one
 * {@link org.rdmasim.hardware.HostSpec} per host it describes, keeping each device's identity (ids,
 * GUIDs, dev numbers); {@link org.rdmasim.importers.nccl.NcclXmlWriter} writes a host back in the same
 * shape with that identity. The vocabulary they share (PCI class codes and vendor/device ids, link
 * speeds, compute capability, CPU ids, cpumasks) lives in one place with its sources.
 */
package org.rdmasim.importers.nccl;
