/**
 * How a refit moves the slice map's bytes, as real systems do it, and the stages around the wire.
 *
 * <p>Entry point: {@link org.rdmasim.refit.method.RefitRun#run} takes the hosts and fabric, a
 * {@link org.rdmasim.refit.method.RefitPlan} (the slice map's routes, where each trainer and inference rank
 * sits, the method, preparation, registration, named stage parameters, cycles) and the transport the RDMA
 * methods ride, and returns a {@link org.rdmasim.refit.method.RefitResult}: per cycle, seconds per
 * {@link org.rdmasim.refit.method.RefitStage}, bytes landed per inference rank, wire bytes against the slice
 * map's minimum, and the limit that was busy longest.
 *
 * <p>Methods ({@link org.rdmasim.refit.method.RefitMethod}, sealed): receiver-driven RDMA pull with optional
 * tree fan-out, a static RDMA WRITE schedule pipelined per sender, NCCL broadcast per bucket (one sender or
 * striped over trainer ranks), and a checkpoint engine (host copy, broadcast, reload), the last two
 * {@link org.rdmasim.refit.method.BroadcastRefit}s sharing one bucket loop. Every byte on a
 * fabric, PCIe, host memory or NVLink crosses the one fluid network; GPU work is priced by HBM and NVLink
 * rates ({@link org.rdmasim.hardware.GpuModel#hbmBytesPerSecond}, {@link
 * org.rdmasim.hardware.HostSpec.GpuSpec#nvlinkBytesPerSecond}); what no mechanism gives is a named parameter
 * ({@link org.rdmasim.refit.method.RefitCalibration}).
 */
package org.rdmasim.refit.method;
