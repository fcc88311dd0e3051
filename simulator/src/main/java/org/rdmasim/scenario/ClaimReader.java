package org.rdmasim.scenario;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.rdmasim.hardware.CalibrationProfile;
import org.rdmasim.hardware.HostSpec;
import org.rdmasim.workload.Claim;
import org.rdmasim.workload.FanoutPlan;
import org.rdmasim.workload.TransferItem;

/** A variant's {@code claim}: a published pull time checked against the model and the line-rate floor. */
final class ClaimReader {
    private ClaimReader() {
    }

    /**
     * A published pull time for this variant: {@code pullSeconds} (a number or [low, high]), the NIC
     * count it assumes, and its source. The floor is the largest receiver's bytes at that many of the
     * receiver host's fastest NICs, each at its payload rate (line rate after framing), the same floor
     * explain prints.
     */
    static Claim claim(YamlTree c, VariantSpec spec) {
        c.onlyFields(Set.of("pullSeconds", "nics", "source"));
        YamlTree p = c.get("pullSeconds");
        double lo;
        double hi;
        if (p.isList()) {
            List<YamlTree> two = p.items();
            if (two.size() != 2) {
                throw p.error("expected one number or [low, high]");
            }
            lo = Quantities.seconds(two.get(0));
            hi = Quantities.seconds(two.get(1));
            if (hi < lo) {
                throw p.error("high is below low");
            }
        } else {
            lo = Quantities.seconds(p);
            hi = lo;
        }
        long n = c.get("nics").integer();
        if (n < 1 || n > 64) {
            throw c.get("nics").error("expected 1 to 64 NICs");
        }
        Map<String, Long> perReceiver = new LinkedHashMap<>();
        Map<String, HostSpec.GpuSpec> receivingGpu = new LinkedHashMap<>();
        double payload = 0;
        double gpuFloor = 0;
        String gpuLink = "";
        for (TransferItem t : pulls(spec)) {
            perReceiver.merge(t.to().toString(), t.bytes(), Long::sum);
            spec.hosts().get(t.to().host()).gpu(t.to().device()).ifPresent(g -> receivingGpu.put(t.to().toString(), g));
            // every byte of a pull also leaves the sending GPU through its one link
            HostSpec.GpuSpec sending = spec.hosts().get(t.from().host()).gpu(t.from().device()).orElse(null);
            if (sending != null && t.bytes() / sending.link().bytesPerSecond() > gpuFloor) {
                gpuFloor = t.bytes() / sending.link().bytesPerSecond();
                gpuLink = linkOf(t.from().toString(), sending);
            }
            HostSpec receiver = spec.hosts().get(t.to().host());
            // a floor over more NICs than the receiving host has is no physical floor: a claim of 9 NICs on a
            // 4-NIC host was checked against 9 NICs' line rate, so a time only 9 NICs could reach read as possible
            if (n > receiver.nicSpecs().size()) {
                throw c.get("nics").error("the claim assumes " + n + " NICs, but receiving host '" + t.to().host()
                        + "' has " + receiver.nicSpecs().size() + ": the line-rate floor counts the receiver's own "
                        + "NICs (1 to " + receiver.nicSpecs().size() + ")");
            }
            CalibrationProfile calibration = CalibrationProfile.forHost(receiver);
            for (HostSpec.NicSpec nic : receiver.nicSpecs()) {
                payload = Math.max(payload, nic.payloadBytesPerSecond(calibration));
            }
        }
        long most = perReceiver.values().stream().mapToLong(Long::longValue).max().orElse(0);
        double floor = most / (n * payload);
        // and every byte a GPU receives enters it through its one link (PCIe or C2C), whatever the NICs carry
        for (var e : receivingGpu.entrySet()) {
            double seconds = perReceiver.get(e.getKey()) / e.getValue().link().bytesPerSecond();
            if (seconds > gpuFloor) {
                gpuFloor = seconds;
                gpuLink = linkOf(e.getKey(), e.getValue());
            }
        }
        return new Claim(c.string("source", ""), lo, hi, (int) n, floor, gpuFloor, gpuLink);
    }

    /** A GPU's link as the verdict names it: {@code b:GPU0's PCIe Gen5 x16 link (504 Gbps)}. */
    private static String linkOf(String endpoint, HostSpec.GpuSpec gpu) {
        org.rdmasim.hardware.LinkSpec l = gpu.link();
        return endpoint + "'s " + (l.type() == org.rdmasim.hardware.LinkSpec.LinkType.PCIE
                ? String.format(java.util.Locale.ROOT, "%s link (%.0f Gbps)", l.describe(),
                        org.rdmasim.hardware.Units.bytesPerSecondToGbps(l.bytesPerSecond()))
                : l.describe() + " link");
    }

    /**
     * The pulls whose bytes the floor is of: a transfer list's transfers, or each fan-out receiver's pulls (every
     * receiver GPU pulls the model, or its shard, whichever source serves it). A fan-out's claim had no pulls here,
     * so its floor was 0 / 0: NaN in summary.json, "-" on the page, and never checked.
     */
    private static List<TransferItem> pulls(VariantSpec spec) {
        if (!spec.isFanout()) {
            return spec.transfers();
        }
        FanoutPlan plan = spec.fanoutPlan();
        List<TransferItem> out = new java.util.ArrayList<>();
        for (FanoutPlan.Member r : plan.receivers()) {
            out.addAll(plan.pulls(r, plan.sources().get(0)));
        }
        return out;
    }
}
