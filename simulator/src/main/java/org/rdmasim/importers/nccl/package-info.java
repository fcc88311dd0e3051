/**
 * NCCL's topology XML, both ways: {@link org.rdmasim.importers.nccl.NcclTopologyReader} turns a file
 * dumped by {@code NCCL_TOPO_DUMP_FILE} or published for a cloud instance type into a
 * {@link org.rdmasim.hardware.HostSpec}; {@link org.rdmasim.importers.nccl.NcclXmlWriter} writes a host
 * back in the same shape. The vocabulary they share (PCI class codes, link speeds, compute capability,
 * CPU ids, cpumasks) lives in one place with its sources.
 */
package org.rdmasim.importers.nccl;
