package org.rdmasim.scenario;

import java.util.List;
import org.rdmasim.hardware.QuantityText;
import org.rdmasim.memory.RegistrationLimits.FirmwareCapScope;
import org.rdmasim.memory.TranslationPageSize;

/**
 * The user parameters that a scenario and a command both set, declared once each. RegistrationReader
 * reads the scenario's {@code registration} section through these, and {@code memory register} its
 * options: the same words, units, defaults and ranges in both.
 */
public final class Parameters {
    private Parameters() {
    }

    /** The smallest page the translation tables map: a cap below one page cannot hold one registration. */
    private static final double ONE_PAGE = 4096;

    /** Translation page size (Linux mlx5 driver: 4 KiB, 64 KiB or 2 MiB pages per MR). */
    public static final Parameter<TranslationPageSize> PAGE_SIZE = new Parameter<>("registration.pageSize",
            "--page-size", "bytes", "4 KiB", Parameter.Range.ANY,
            "Linux mlx5 driver [linux-mlx5]: an MR maps its buffer with one page size",
            text -> {
                long bytes = QuantityText.bytes(text);
                try {
                    return TranslationPageSize.ofBytes(bytes);
                } catch (RuntimeException e) {
                    throw new IllegalArgumentException(e.getMessage(), e);
                }
            }, p -> p.bytes());

    /** The firmware (ICM) page cap on host memory pinned for registrations. */
    public static final Parameter<Long> FIRMWARE_PAGE_CAP = new Parameter<>("registration.firmwarePageCap",
            "--fw-page-cap", "bytes", "none", new Parameter.Range(ONE_PAGE, 0x1p63,
                    "a firmware page cap holds at least one 4 KiB page"),
            "Crusoe, NIXL registration errors [crusoe-kb-nixl]: a per-VF cap; no provider publishes its value",
            QuantityText::bytes, Long::doubleValue);

    /** Whether the firmware page cap is per HCA (each PCI function: a PF or a VF) or one budget per host. */
    public static final Parameter<FirmwareCapScope> CAP_SCOPE = new Parameter<>("registration.capScope",
            "--fw-cap-scope", "hca|vf|host|vm", "hca", Parameter.Range.ANY,
            "Linux mlx5 pagealloc.c: the firmware's pages are given per function_id; a VF is one function",
            FirmwareCapScope::parse, s -> 0);

    /** Physical host memory that pinned registrations draw from. */
    public static final Parameter<Long> HOST_MEMORY = new Parameter<>("registration.hostMemory", "--host-memory",
            "bytes", "the preset's", new Parameter.Range(ONE_PAGE, 0x1p63, "host memory holds at least one 4 KiB page"),
            "the host preset's memory (vendor specification of each preset)", QuantityText::bytes, Long::doubleValue);

    /** Every declared parameter, in the order a scenario's sections list them. */
    public static List<Parameter<?>> all() {
        return List.of(PAGE_SIZE, FIRMWARE_PAGE_CAP, CAP_SCOPE, HOST_MEMORY);
    }
}
