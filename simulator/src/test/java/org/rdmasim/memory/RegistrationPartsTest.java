package org.rdmasim.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.rdmasim.hardware.Host;
import org.rdmasim.hardware.Presets;
import org.rdmasim.transport.config.ConfigResolver;
import org.rdmasim.transport.config.StackSetup;
import org.rdmasim.transport.config.StackVersion;

/**
 * A buffer's registration split between {@code ucp_mem_map} and a lane's first use: the first registration pays
 * the once-per-buffer cost and a host buffer's pinned pages, each HCA's MRs go to the step that registered them,
 * and the two parts add up to the buffer's totals.
 */
class RegistrationPartsTest {
    private static RegistrationPlan hostBufferOnEveryHca() {
        Host hgx = new Host("node0", Presets.get("hgx-h200"));
        StackSetup setup = new StackSetup(List.of(), Optional.of(StackVersion.parse("1.2.0")),
                StackVersion.parse("1.20.0"), List.of(), "GPU0", 0, org.rdmasim.transport.ucx.StackProfile.nicView(hgx));
        VariantRegistration.Outcome o = VariantRegistration.register(List.of(hgx), (h, d) -> ConfigResolver.resolve(setup),
                List.of(new VariantRegistration.Buffer("node0", MemoryRegion.host("CPU0", ByteUnits.GIB))),
                new RegistrationModel(), RegistrationCaps.none());
        RegistrationPlan p = o.hosts().get(0).plans().get(0);
        assertTrue(p.perHca().size() >= 2 && p.pinnedHostBytes() > p.firmwareBytes(), p.toString());
        return p;
    }

    @Test
    void withoutFirstUseUcpMemMapMadeTheWholeRegistration() {
        RegistrationPlan p = hostBufferOnEveryHca();
        assertEquals(p.totals(), p.totalsByMemMap());
        assertEquals(0, p.totalsAtFirstUse().mrCount());
        assertEquals(0.0, p.totalsAtFirstUse().summedSeconds(), 0.0);
    }

    @Test
    void anHcaRegisteredAtFirstUseTakesItsOwnMrsAndTimeAndThePartsAddUp() {
        RegistrationPlan all = hostBufferOnEveryHca();
        HcaRegistration last = all.perHca().get(all.perHca().size() - 1);
        RegistrationPlan p = all.withAtFirstUse(List.of(last.hca().name()));
        RegistrationTotals late = p.totalsAtFirstUse();
        RegistrationTotals early = p.totalsByMemMap();
        assertEquals(last.mrCount(), late.mrCount());
        assertEquals(last.firmwareBytes(), late.pinnedHostBytes(), "the buffer's pages were pinned by ucp_mem_map");
        assertEquals(last.registrationSeconds(), late.summedSeconds(), 0.0);
        assertEquals(p.totalMrs(), early.mrCount() + late.mrCount());
        assertEquals(p.totalTranslationBytes(), early.translationBytes() + late.translationBytes());
        assertEquals(p.firmwareBytes(), early.firmwareBytes() + late.firmwareBytes());
        assertEquals(p.pinnedHostBytes(), early.pinnedHostBytes() + late.pinnedHostBytes());
        assertEquals(p.registrationSeconds(), early.summedSeconds() + late.summedSeconds(), 1e-12 * p.registrationSeconds());
    }

    @Test
    void aBufferNoHcaOfUcpMemMapHoldsPaysItsOnceCostAndPagesAtFirstUse() {
        RegistrationPlan all = hostBufferOnEveryHca();
        RegistrationPlan p = all.withAtFirstUse(all.hcaNames());
        assertEquals(RegistrationTotals.ZERO, p.totalsByMemMap());
        assertEquals(all.totals(), p.totalsAtFirstUse());
    }
}
